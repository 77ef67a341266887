import NFCTransport

/// Reads everything an NTAG21x or Ultralight EV1 gives up, for a copy of it (``Type2Capture``).
///
/// The memory is read as ``Type2DumpOperation`` reads it (FAST_READ, halved around protected pages);
/// then READ_SIG (NTAG213/215/216 §10.9) and READ_CNT for each counter (§10.6: the NFC counter, 02h;
/// MF0ULX1 “READ_CNT”: 00h–02h). A NAK or silence to either leaves that value unknown and
/// reactivates the tag (it is mute after a NAK, §9.3). PWD and PACK always read as zeros (§8.8.3),
/// so they are reported unread. The model must be known from GET_VERSION: the memory map of an
/// unknown chip cannot be copied faithfully.
public struct Type2CaptureOperation: TagOperation {
    enum State: Sendable {
        case dumping(Type2DumpOperation)
        case readingSignature
        case readingCounter(Int)
        /// Reactivating after a refusal; then the counter at this position, or the end.
        case reactivating(nextCounter: Int)
        case finished
    }

    private let nativeCommands: ExchangeLimits.NativeCommands
    private var capture: Type2Capture?
    private var state: State

    /// A capture over a connection with these limits.
    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        nativeCommands = limits.nativeCommands
        state = .dumping(Type2DumpOperation(limits: limits, maximumReadLength: maximumReadLength))
    }

    /// Starts the memory dump.
    /// - Throws: `.unexpectedResponse` when started twice; the dump's errors.
    public mutating func start() throws(TagEngineError) -> TagStep<Type2Capture> {
        guard case .dumping(var dump) = state else { throw TagEngineError(.unexpectedResponse, "capture started twice") }
        let step = try dump.start()
        return try dumped(dump, step)
    }

    /// Carries the dump on, then reads the signature and the counters.
    /// - Throws: `.unsupported` when the reader cannot send GET_VERSION or the chip is not a model
    ///   the engine knows; `.unexpectedResponse` for an answer of the wrong length; the dump's errors.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type2Capture> {
        switch state {
        case .dumping(var dump):
            let step = try dump.resume(with: outcome)
            return try dumped(dump, step)
        case .readingSignature:
            guard let answer = try Self.answerOrRefusal(outcome, expected: 32, command: "READ_SIG") else {
                return reactivate(nextCounter: 0)
            }
            capture?.signature = answer
            return try readCounter(0)
        case .readingCounter(let position):
            guard let answer = try Self.answerOrRefusal(outcome, expected: 3, command: "READ_CNT") else {
                return reactivate(nextCounter: position + 1)
            }
            capture?.counters[position] = UInt32(answer[0]) | UInt32(answer[1]) << 8 | UInt32(answer[2]) << 16
            return try readCounter(position + 1)
        case .reactivating(let next):
            _ = try outcome.answer()
            return try readCounter(next)
        case .finished:
            throw TagEngineError(.unexpectedResponse, "capture resumed after it finished")
        }
    }

    /// The READ_CNT addresses of a model's counters: 02h on NTAG21x, 00h–02h on Ultralight EV1.
    static func counterAddresses(_ model: Type2Model) -> [Int] { model.isNTAG ? [2] : [0, 1, 2] }

    private mutating func dumped(_ dump: Type2DumpOperation, _ step: TagStep<TagMemoryDump>) throws(TagEngineError) -> TagStep<
        Type2Capture
    > {
        if let next: TagStep<Type2Capture> = Type2Step.forward(step) {
            state = .dumping(dump)
            return next
        }
        guard let model = dump.model, let version = dump.version else {
            let why = dump.version.map { "GET_VERSION \($0) names no model this engine knows" } ?? "the chip did not answer GET_VERSION"
            throw TagEngineError(.unsupported, "cannot copy the tag: its memory map is unknown (\(why))")
        }
        let last = dump.lastPage ?? -1
        var pages: [[UInt8]?] = (0..<model.pageCount).map { page in page <= last ? dump.memory.page(page) : nil }
        pages[model.passwordPage] = nil
        pages[model.packPage] = nil
        capture = Type2Capture(
            model: model, version: version, pages: pages, signature: nil,
            counters: Array(repeating: nil, count: Self.counterAddresses(model).count))
        guard case .all = nativeCommands else { return try finish() }
        state = .readingSignature
        return .transceive(Type2Command.readSignature, timeout: Type2Command.readTimeout(bytes: 32))
    }

    private mutating func readCounter(_ position: Int) throws(TagEngineError) -> TagStep<Type2Capture> {
        guard let model = capture?.model, position < Self.counterAddresses(model).count else { return try finish() }
        state = .readingCounter(position)
        return .transceive(Type2Command.readCounter(Self.counterAddresses(model)[position]), timeout: Type2Command.shortTimeout)
    }

    private mutating func reactivate(nextCounter: Int) -> TagStep<Type2Capture> {
        state = .reactivating(nextCounter: nextCounter)
        return .reactivate
    }

    private mutating func finish() throws(TagEngineError) -> TagStep<Type2Capture> {
        state = .finished
        guard let capture else { throw TagEngineError(.unexpectedResponse, "capture finished before the memory was read") }
        return .done(capture)
    }

    /// The answer's bytes, or `nil` for a refusal (NAK or silence).
    private static func answerOrRefusal(_ outcome: Result<[UInt8], TransportError>, expected: Int, command: String) throws(TagEngineError)
        -> [UInt8]?
    {
        switch outcome {
        case .success(let answer):
            if Type2Command.isNAK(answer) { return nil }
            guard answer.count == expected else {
                throw TagEngineError(.unexpectedResponse, "\(command) answered \(answer.count) bytes, expected \(expected)")
            }
            return answer
        case .failure(let error):
            switch error.code {
            case .timeout, .transmission: return nil
            default: throw TagEngineError(transport: error)
            }
        }
    }
}
