import NFCTransport

/// Reads a Type 2 tag's whole memory, page by page, for `nfc dump`.
///
/// A model known from GET_VERSION is read with FAST_READs sized by the reader's limits, page 00h
/// to its PACK page (PWD and PACK read as zeros). A FAST_READ that reaches read-protected pages is
/// NAKed whole, so the span is halved until the readable pages are found, and the dump ends at the
/// first protected page, and the pages from there to the model's last page are reported unreadable.
/// Other chips are read with READ from page 00h until one is refused; READ
/// rolls over past the last page on some chips, so the last pages are then probed one by one.
/// NTAG213/215/216 §10.2–10.3; NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §5.1.
public struct Type2DumpOperation: TagOperation {
    enum State: Sendable {
        case probing(Type2VersionProbe)
        /// FAST_READ of `count` pages from `start`.
        case fastReading(start: Int, count: Int)
        /// READ of 4 pages from `start`.
        case reading(start: Int)
        /// READ of the single page `page` while looking for the last page after a refused READ.
        case probingEnd(page: Int, limit: Int)
        /// Reactivating after a NAK or silence; then `next`.
        case reactivating(next: Next)
        case finished
    }

    /// What follows a reactivation.
    enum Next: Sendable {
        case fastRead(start: Int, count: Int)
        case probeEnd(page: Int, limit: Int)
        case stop(lastPage: Int)
    }

    private let limits: ExchangeLimits
    private let maximumReadLength: Int?
    private var readLimits: Type2ReadLimits
    /// The model GET_VERSION named, once probed.
    private(set) var model: Type2Model?
    /// The GET_VERSION answer, once probed (`nil`: not asked or refused).
    private(set) var version: Type2Version?
    /// Every page read so far.
    private(set) var memory = Type2Memory()
    /// The last page the finished dump covers (`nil` until it finishes).
    private(set) var lastPage: Int?
    /// The lowest last page of a refused FAST_READ: later reads end before it.
    private var ceiling: Int?
    private var state: State

    /// A dump over a connection.
    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
        readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: nil)
        state = .probing(Type2VersionProbe(limits: limits))
    }

    /// Sends GET_VERSION to learn the model, or the first READ when the reader carries only READ and WRITE.
    /// - Throws: `.unsupported` when the reader cannot carry a 16-byte READ answer; `.unexpectedResponse`
    ///   when started twice.
    public mutating func start() throws(TagEngineError) -> TagStep<TagMemoryDump> {
        guard case .probing(var probe) = state else { throw TagEngineError(.unexpectedResponse, "dump started twice") }
        let step = probe.start()
        return try probed(probe, step)
    }

    /// Stores each answer and sends the next read; a refused read (NAK, silence, damaged frame)
    /// reactivates the tag and narrows the span or ends the dump. Done with the rows read and the model's pages left unread.
    /// - Throws: `.unexpectedResponse` for an answer of the wrong length or after the dump finished;
    ///   `.unsupported` when the reader cannot carry a 16-byte READ answer; other transport failures.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<TagMemoryDump> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .fastReading(let start, let count):
            guard let answer = try Self.pagesOrRefusal(outcome, expected: count * 4) else {
                ceiling = min(ceiling ?? Int.max, start + count - 1)
                return reactivate(then: count > 1 ? .fastRead(start: start, count: count / 2) : .stop(lastPage: start - 1))
            }
            memory.store(answer, from: start)
            return fastRead(from: start + count)
        case .reading(let start):
            guard let answer = try Self.pagesOrRefusal(outcome, expected: 16) else {
                // Refused at `start`: the memory ends before it; if the last READ rolled over, find where.
                return start == 0 ? reactivate(then: .stop(lastPage: -1)) : reactivate(then: .probeEnd(page: start - 3, limit: start))
            }
            memory.store(answer, from: start)
            return read(from: start + 4)
        case .probingEnd(let page, let limit):
            guard try Self.pagesOrRefusal(outcome, expected: 16) != nil else {
                return reactivate(then: .stop(lastPage: page - 1))
            }
            return page + 1 < limit ? probeEnd(page: page + 1, limit: limit) : finish(lastPage: limit - 1)
        case .reactivating(let next):
            _ = try outcome.answer()
            switch next {
            case .fastRead(let start, let count): return fastRead(from: start, count: count)
            case .probeEnd(let page, let limit): return probeEnd(page: page, limit: limit)
            case .stop(let lastPage): return finish(lastPage: lastPage)
            }
        case .finished:
            throw TagEngineError(.unexpectedResponse, "dump resumed after it finished")
        }
    }

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<
        TagMemoryDump
    > {
        if let next: TagStep<TagMemoryDump> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        model = answer.model
        version = answer.version
        readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: answer.version)
        if model != nil, readLimits.fastRead, readLimits.maximumLength >= 4 { return fastRead(from: 0) }
        guard readLimits.maximumLength >= 16 else {
            throw TagEngineError(.unsupported, "READ answers 16 bytes but the reader carries at most \(readLimits.maximumLength)")
        }
        return read(from: 0)
    }

    /// The answer's bytes, or `nil` for a refusal (NAK, silence, damaged answer).
    private static func pagesOrRefusal(_ outcome: Result<[UInt8], TransportError>, expected: Int) throws(TagEngineError) -> [UInt8]? {
        switch outcome {
        case .success(let answer):
            if Type2Command.isNAK(answer) { return nil }
            guard answer.count == expected else {
                throw TagEngineError(.unexpectedResponse, "a read answered \(answer.count) bytes, expected \(expected)")
            }
            return answer
        case .failure(let error):
            switch error.code {
            case .timeout, .transmission: return nil
            default: throw TagEngineError(transport: error)
            }
        }
    }

    private mutating func fastRead(from start: Int, count: Int? = nil) -> TagStep<TagMemoryDump> {
        let limit = min(model?.pageCount ?? 0, ceiling ?? Int.max)
        guard start < limit else { return finish(lastPage: start - 1) }
        let span = min(count ?? readLimits.maximumLength / 4, limit - start, 256)
        state = .fastReading(start: start, count: span)
        return .transceive(Type2Command.fastRead(start, start + span - 1), timeout: Type2Command.readTimeout(bytes: span * 4))
    }

    private mutating func read(from start: Int) -> TagStep<TagMemoryDump> {
        let last = model.map { $0.pageCount - 1 } ?? 255
        guard start <= last else { return finish(lastPage: last) }
        state = .reading(start: start)
        return .transceive(Type2Command.read(start), timeout: Type2Command.shortTimeout)
    }

    private mutating func probeEnd(page: Int, limit: Int) -> TagStep<TagMemoryDump> {
        state = .probingEnd(page: page, limit: limit)
        return .transceive(Type2Command.read(page), timeout: Type2Command.shortTimeout)
    }

    private mutating func reactivate(then next: Next) -> TagStep<TagMemoryDump> {
        state = .reactivating(next: next)
        return .reactivate
    }

    private mutating func finish(lastPage: Int) -> TagStep<TagMemoryDump> {
        state = .finished
        self.lastPage = lastPage
        let rows = memory.rows.filter { $0.0 <= lastPage }.map { (Type2Command.hex($0.0), $0.1) }
        var gaps: [TagMemoryDump.Gap] = []
        if let model, lastPage + 1 < model.pageCount {
            gaps.append(
                TagMemoryDump.Gap(
                    first: Type2Command.hex(lastPage + 1), last: Type2Command.hex(model.pageCount - 1),
                    count: model.pageCount - lastPage - 1, reason: "refused: password-protected (PROT with AUTH0), or absent"
                ))
        }
        return .done(TagMemoryDump(rows: rows, unreadable: gaps))
    }
}
