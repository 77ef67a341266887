import NFCTransport

/// Turns what detection found into the block writes of an operation (format, make read-only).
protocol Type3WritePlanner: Sendable {
    /// The operation's name, for error messages.
    static var operationName: String { get }
    /// The writes, in batches sent one command each, in order.
    func plan(_ detection: Type3Detection) throws(TagEngineError) -> [[Type3BlockWrite]]
}

/// Detects the card, asks a planner for the writes, then sends them batch by batch: the state
/// machine that formatting and making read-only share.
struct Type3PlannedWriteOperation<Planner: Type3WritePlanner>: TagOperation {
    typealias Output = Void

    enum State: Sendable {
        case detecting(Type3Detector)
        case writing(Type3BlockWriter)
        case finished
    }

    let planner: Planner
    private(set) var state: State

    init(link: Type3Link, planner: Planner) {
        self.planner = planner
        state = .detecting(Type3Detector(link: link))
    }

    mutating func start() throws(TagEngineError) -> TagStep<Void> {
        guard case .detecting(var detector) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 3 \(Planner.operationName) started twice")
        }
        let step = try detector.start()
        state = .detecting(detector)
        return try advance(step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 \(Planner.operationName) resumed out of turn")
        case .detecting(var detector):
            let step = try detector.resume(with: outcome)
            state = .detecting(detector)
            return try advance(step)
        case .writing(var writer):
            try writer.accept(outcome)
            return send(writer)
        }
    }

    private mutating func advance(_ step: TagStep<Type3Detection>) throws(TagEngineError) -> TagStep<Void> {
        switch step.relay(to: Void.self) {
        case .pass(let next):
            return next
        case .finished(let detection):
            return send(Type3BlockWriter(link: detection.link, batches: try planner.plan(detection)))
        }
    }

    private mutating func send(_ writer: Type3BlockWriter) -> TagStep<Void> {
        var writer = writer
        guard let next = writer.next() else {
            state = .finished
            return .done(())
        }
        state = .writing(writer)
        return .transceive(next.frame, timeout: next.timeout)
    }
}
