import NFCTransport

/// What NDEF detection found: the capability container and the NDEF TLV's place.
struct Type5Detection: Sendable, Hashable {
    var cc: Type5CapabilityContainer
    var layout: Type5NDEFLayout

    /// The NDEF status, as Core NFC's `queryNDEFStatus` reports it (T5T 1.0 §7.5.1):
    /// read-only when the CC's write access is not "always" (`10` proprietary, `11` never, `01`
    /// RFU) or when block 0 or the block holding the NDEF length byte is locked, since no update
    /// could then complete; not supported when reading needs a proprietary procedure.
    func status(_ session: Type5Session) -> NDEFStatus {
        guard cc.readAccess == .always else { return .notSupported }
        let locked = session.isLocked(0) || session.isLocked(session.block(containing: layout.lengthOffset))
        let state: NDEFStatus.State = cc.writeAccess == .always && !locked ? .readWrite : .readOnly
        return NDEFStatus(state: state, capacity: layout.capacity, messageLength: layout.messageLength)
    }
}

/// NDEF detection (T5T 1.0 §7.5.1) as a sub-machine over a ``Type5Session``: it asks the session
/// for the bytes it needs — the CC, then each TLV header — and reports when it has found the
/// NDEF TLV (or the place for one).
///
/// The first read asks for four blocks at once (the CC and, usually, the NDEF TLV header), with
/// their security status; a tag that refuses Read Multiple Blocks is then read block by block.
struct Type5Detector: Sendable {
    private(set) var cc: Type5CapabilityContainer?
    /// Stop once the CC is known (making read-only needs no TLV walk).
    let ccOnly: Bool

    init(ccOnly: Bool = false) { self.ccOnly = ccOnly }

    /// Starts: asks the session for the CC's first bytes.
    mutating func start(_ session: inout Type5Session) {
        session.requestRead(upTo: 4, withStatus: true)
    }

    /// Continues once the session's memory holds what was asked: returns the detection, or `nil`
    /// after asking the session for more bytes.
    /// - Throws: `.notFormatted` (no CC), `.invalidCapabilityContainer`, `.invalidNDEFArea`.
    mutating func evaluate(_ session: inout Type5Session) throws(TagEngineError) -> Type5Detection? {
        let memory = session.memory
        if cc == nil {
            let needed = Type5CapabilityContainer.neededLength(memory[...]) ?? 4
            guard memory.count >= needed else {
                session.requestRead(upTo: needed, withStatus: true)
                return nil
            }
            let parsed = try Type5CapabilityContainer(parsing: memory[0..<needed])
            session.adopt(parsed)
            cc = parsed
        }
        guard let cc else { return nil }
        if ccOnly {
            return Type5Detection(
                cc: cc,
                layout: Type5NDEFLayout(tlvOffset: cc.length, hasNDEFTLV: false, headerLength: 0, messageLength: 0, areaEnd: cc.areaEnd))
        }
        switch try Type5TLVScan.scan(memory, cc: cc) {
        case .need(let end):
            session.requestRead(upTo: end, readAhead: min(cc.areaEnd, memory.count + Type5Session.readAhead), withStatus: true)
            return nil
        case .located(let layout):
            return Type5Detection(cc: cc, layout: layout)
        }
    }
}
