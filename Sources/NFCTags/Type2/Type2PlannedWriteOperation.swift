import NFCTransport

/// What a planned Type 2 write needs: the model from GET_VERSION, some pages read, then the
/// page writes it decides on (format, set password).
protocol Type2WritePlan: Sendable {
    /// The operation's name, for error messages.
    static var operationName: String { get }
    /// Checks the caller's parameters before anything is sent.
    func check() throws(TagEngineError)
    /// The model the probe found and the pages to read before planning; throws when the probe
    /// answer does not allow the operation.
    func pagesToRead(after answer: Type2VersionAnswer) throws(TagEngineError) -> (model: Type2Model, pages: [Int])
    /// The writes, in order, given the pages read.
    func writes(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite]
}

/// Probes the chip with GET_VERSION, reads the pages a plan asks for, then writes what the plan
/// decides: the state machine that formatting, wiping, restoring and setting a password share. Done
/// with the number of pages written.
struct Type2PlannedWriteOperation<Plan: Type2WritePlan>: TagOperation {
    enum State: Sendable {
        case idle
        case probing(Type2VersionProbe)
        case reading(Type2PageReader, Type2Model)
        case writing(Type2PageWriter)
        case finished
    }

    let plan: Plan
    private let limits: ExchangeLimits
    private let maximumReadLength: Int?
    private var state = State.idle

    /// - Parameters:
    ///   - plan: what to read and write.
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes of one read.
    init(plan: Plan, limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.plan = plan
        self.limits = limits
        self.maximumReadLength = maximumReadLength
    }

    mutating func start() throws(TagEngineError) -> TagStep<Int> {
        guard case .idle = state else { throw TagEngineError(.unexpectedResponse, "\(Plan.operationName) started twice") }
        try plan.check()
        var probe = Type2VersionProbe(limits: limits)
        let step = probe.start()
        return try probed(probe, step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Int> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .reading(var reader, let model):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Int> = Type2Step.forward(step) {
                state = .reading(reader, model)
                return next
            }
            return try write(model: model, memory: reader.memory)
        case .writing(var writer):
            let step = try writer.resume(with: outcome)
            state = .writing(writer)
            return written(step, by: writer)
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "\(Plan.operationName) resumed out of turn")
        }
    }

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<Int> {
        if let next: TagStep<Int> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        let (model, pages) = try plan.pagesToRead(after: answer)
        let readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: answer.version)
        var reader = Type2PageReader(plan: try readLimits.plan(pages), into: Type2Memory())
        let first = reader.start()
        state = .reading(reader, model)
        guard let next: TagStep<Int> = Type2Step.forward(first) else {
            throw TagEngineError(.unexpectedResponse, "nothing to read before \(Plan.operationName)")
        }
        return next
    }

    private mutating func write(model: Type2Model, memory: Type2Memory) throws(TagEngineError) -> TagStep<Int> {
        var writer = Type2PageWriter(try plan.writes(model: model, memory: memory))
        let first = writer.start()
        state = .writing(writer)
        return written(first, by: writer)
    }

    private mutating func written(_ step: TagStep<Void>, by writer: Type2PageWriter) -> TagStep<Int> {
        switch step {
        case .transceive(let frame, let timeout): return .transceive(frame, timeout: timeout)
        case .reactivate: return .reactivate
        case .done:
            state = .finished
            return .done(writer.writes.count)
        }
    }
}
