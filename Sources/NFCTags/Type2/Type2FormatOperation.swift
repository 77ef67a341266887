import NFCTransport

/// Formats a blank NTAG21x or Ultralight EV1 for NDEF: an empty NDEF TLV in page 4, then the CC.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1.3 and §6.3.1 (INITIALIZED state): CC `E1 10 size 00`
/// with the model's data area (NTAG213 12h, NTAG215 3Eh, NTAG216 6Dh, MF0UL11 06h, MF0UL21 10h, as NXP
/// formats them) and the TLVs `03 00 FE`. The TLVs go first and the CC (one-time programmable) last, so
/// an interrupted format leaves a blank tag that can be formatted again. The model must be known from
/// GET_VERSION: the data area of an unknown chip cannot be told safely.
public struct Type2FormatOperation: TagOperation {
    enum State: Sendable {
        case probing(Type2VersionProbe)
        case reading(Type2PageReader, Type2Model)
        case writing(Type2PageWriter)
        case finished
    }

    /// The TLVs of an empty formatted tag: an empty NDEF Message TLV and a Terminator.
    static let emptyTLVs: [UInt8] = [0x03, 0x00, 0xFE, 0x00]

    private let limits: ExchangeLimits
    private let maximumReadLength: Int?
    private var state: State

    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
        state = .probing(Type2VersionProbe(limits: limits))
    }

    public mutating func start() throws(TagEngineError) -> TagStep<Void> {
        guard case .probing(var probe) = state else { throw TagEngineError(.unexpectedResponse, "format started twice") }
        let step = probe.start()
        return try probed(probe, step)
    }

    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .reading(var reader, let model):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Void> = Type2Step.forward(step) {
                state = .reading(reader, model)
                return next
            }
            return try write(model: model, memory: reader.memory)
        case .writing(var writer):
            let step = try writer.resume(with: outcome)
            state = .writing(writer)
            if case .done = step { state = .finished }
            return step
        case .finished:
            throw TagEngineError(.unexpectedResponse, "format resumed after it finished")
        }
    }

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<Void> {
        if let next: TagStep<Void> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        guard let model = answer.model else {
            let why = switch answer {
            case .notAsked: "the reader cannot send GET_VERSION"
            case .refused: "the tag does not answer GET_VERSION"
            case .answered(let version): "GET_VERSION \(version) names no known model"
            }
            throw TagEngineError(.unsupported, "cannot format: the data area size is unknown (\(why))")
        }
        let readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: answer.version)
        var reader = Type2PageReader(plan: try readLimits.plan([2, 3, 4]), into: Type2Memory())
        let first = reader.start()
        state = .reading(reader, model)
        guard let next: TagStep<Void> = Type2Step.forward(first) else {
            throw TagEngineError(.unexpectedResponse, "nothing to read before formatting")
        }
        return next
    }

    private mutating func write(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> TagStep<Void> {
        guard let page3 = memory.page(3), let page4 = memory.page(4) else {
            throw TagEngineError(.unexpectedResponse, "pages 3–4 missing after reading them")
        }
        switch Type2CapabilityContainer.parse(page3, userMemorySize: model.userMemorySize) {
        case .blank:
            break
        case .valid(let cc):
            throw TagEngineError(.alreadyFormatted, "page 3 holds the capability container \(cc)")
        case .noMagic, .invalid:
            throw TagEngineError(.unsupported, "page 3 holds \(Type2CapabilityContainer(bytes: page3)), not a usable CC; page 3 is one-time programmable and cannot be rewritten")
        }
        if let low = memory.byte(at: Type2LockBits.staticLockAddress), low & 0x18 != 0 {
            throw TagEngineError(.readOnly, "static lock bits lock page 3 or 4 (lock byte 0 is \(Type2Command.hex(Int(low))))")
        }
        var writes: [Type2PageWrite] = []
        if page4 != Self.emptyTLVs { writes.append(Type2PageWrite(page: 4, bytes: Self.emptyTLVs)) }
        writes.append(Type2PageWrite(page: 3, bytes: Type2CapabilityContainer.formatted(size: model.capabilityContainerSize)))
        var writer = Type2PageWriter(writes)
        let first = writer.start()
        state = .writing(writer)
        return first
    }
}
