import NFCTransport

/// Formats a blank NTAG21x or Ultralight EV1 for NDEF: an empty NDEF TLV in page 4, then the CC.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1.3 and §6.3.1 (INITIALIZED state): CC `E1 10 size 00`
/// with the model's data area (NTAG213 12h, NTAG215 3Eh, NTAG216 6Dh, MF0UL11 06h, MF0UL21 10h, as NXP
/// formats them) and the TLVs `03 00 FE`. The TLVs go first and the CC (one-time programmable) last, so
/// an interrupted format leaves a blank tag that can be formatted again. The model must be known from
/// GET_VERSION: the data area of an unknown chip cannot be told safely.
typealias Type2FormatOperation = Type2PlannedWriteOperation<Type2FormatPlan>

extension Type2PlannedWriteOperation where Plan == Type2FormatPlan {
    init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.init(plan: Type2FormatPlan(), limits: limits, maximumReadLength: maximumReadLength)
    }
}

/// The plan of ``Type2FormatOperation``.
struct Type2FormatPlan: Type2WritePlan {
    static var operationName: String { "format" }

    /// The TLVs of an empty formatted tag: an empty NDEF Message TLV and a Terminator.
    static let emptyTLVs: [UInt8] = [0x03, 0x00, 0xFE, 0x00]

    init() {}

    func check() throws(TagEngineError) {}

    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int]) {
        guard let model = answer.model else {
            let why =
                switch answer {
                case .notAsked(let reader): "\(reader) cannot send GET_VERSION: it carries READ and WRITE only"
                case .refused: "the tag does not answer GET_VERSION"
                case .answered(let version): "GET_VERSION \(version) names no known model"
                }
            throw TagEngineError(.unsupported, "cannot format: the data area size is unknown (\(why))")
        }
        return (model, [2, 3, 4])
    }

    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        guard let page3 = memory.page(3), let page4 = memory.page(4) else {
            throw TagEngineError(.unexpectedResponse, "pages 3–4 missing after reading them")
        }
        switch Type2CapabilityContainer.parse(page3, userMemorySize: model.userMemorySize) {
        case .blank:
            break
        case .valid(let cc):
            throw TagEngineError(.alreadyFormatted, "page 3 holds the capability container \(cc)")
        case .noMagic, .invalid:
            throw TagEngineError(
                .unsupported,
                "page 3 holds \(Type2CapabilityContainer(bytes: page3)), not a usable CC; page 3 is one-time programmable and cannot be rewritten"
            )
        }
        if let low = memory.byte(at: Type2LockBits.staticLockAddress), low & 0x18 != 0 {
            throw TagEngineError(.readOnly, "static lock bits lock page 3 or 4 (lock byte 0 is \(Type2Command.hex(Int(low))))")
        }
        var writes: [Type2PageWrite] = []
        if page4 != Self.emptyTLVs { writes.append(Type2PageWrite(page: 4, bytes: Self.emptyTLVs)) }
        writes.append(Type2PageWrite(page: 3, bytes: Type2CapabilityContainer.formatted(size: model.capabilityContainerSize)))
        return writes
    }
}
