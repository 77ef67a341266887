/// What an inspection learned about a Type 2 tag: its version, the pages read, the CC, the TLV layout
/// and the lock bits; from it the NDEF status (NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.3 life
/// cycle, §6.4.1).
struct Type2Snapshot: Sendable {
    var versionAnswer: Type2VersionAnswer = .notAsked(reader: "the reader")
    var readLimits: Type2ReadLimits
    var memory = Type2Memory()
    /// What page 3 holds; `nil` before it was read.
    var capabilityContainer: Type2CapabilityContainer.Reading?
    /// The TLV structure; `nil` when the CC is not usable.
    var layout: TLVAreaLayout?
    /// The dynamic lock bits; `nil` when their place is unknown.
    var dynamicLocks: [Type2LockBits.Dynamic]?

    init(readLimits: Type2ReadLimits) { self.readLimits = readLimits }

    var model: Type2Model? { versionAnswer.model }

    /// The CC when usable.
    var validCC: Type2CapabilityContainer? {
        if case .valid(let cc)? = capabilityContainer { return cc }
        return nil
    }

    /// The CC and TLV layout of an NDEF-formatted, readable tag.
    /// - Throws: `notFormatted` (blank or no magic number), `invalidCapabilityContainer`, or
    ///   `unsupported` when the CC grants no read access.
    func ndefArea() throws(TagEngineError) -> (Type2CapabilityContainer, TLVAreaLayout) {
        switch capabilityContainer {
        case .valid(let cc)?:
            guard cc.grantsRead else {
                throw TagEngineError(.unsupported, "CC byte 3 grants no read access (\(cc.bytes[3] >> 4)h)")
            }
            guard let layout else { throw TagEngineError(.notFormatted, "the TLV area was not read") }
            return (cc, layout)
        case .blank?:
            throw TagEngineError(.notFormatted, "page 3 (the capability container) is blank")
        case .noMagic(let bytes)?:
            throw TagEngineError(.notFormatted, "page 3 holds \(Type2CapabilityContainer(bytes: bytes)), not the NDEF magic number E1h")
        case .invalid(let reason)?:
            throw TagEngineError(.invalidCapabilityContainer, reason)
        case nil:
            throw TagEngineError(.notFormatted, "page 3 was not read")
        }
    }

    /// Whether the CC, a static lock bit or a dynamic lock bit (where known) forbids writing the NDEF.
    var isReadOnly: Bool {
        guard let cc = validCC else { return true }
        if !cc.grantsWrite { return true }
        if Type2LockBits.staticLocksData(in: memory, dataAreaEnd: cc.dataAreaEnd) ?? false { return true }
        return (dynamicLocks ?? []).contains { $0.anyLocked(in: memory) ?? false }
    }

    /// The status as Core NFC reports it.
    ///
    /// Capacity: the usable bytes from the NDEF TLV (or where one would go) to the end of the data
    /// area the CC declares, without the bytes Lock Control and Memory Control TLVs reserve, less
    /// the TLV header (2 bytes, or 4 for messages of 255 bytes and more): 868 B on an NTAG216
    /// (872 − 4), 492 on an NTAG215, 142 on an NTAG213, 46 on MF0UL11, 126 on MF0UL21, as NXP
    /// formats them (137 on an NTAG213 whose NDEF TLV follows a 5-byte Lock Control TLV).
    var status: NDEFStatus {
        guard let area = try? ndefArea() else { return .notSupported }
        return NDEFStatus(state: isReadOnly ? .readOnly : .readWrite, capacity: area.1.capacity, messageLength: area.1.ndef?.length ?? 0)
    }

    /// The NDEF message bytes (empty when the TLV is empty or absent).
    func message() throws(TagEngineError) -> [UInt8] {
        let (_, layout) = try ndefArea()
        guard let ndef = layout.ndef else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ndef.length)
        for address in layout.messageAddresses(ndef) {
            guard let byte = memory.byte(at: address) else {
                throw TagEngineError(.unexpectedResponse, "message byte at address \(address) was not read")
            }
            bytes.append(byte)
        }
        return bytes
    }
}
