import ISO7816
import NFCTransport

/// What a Type 4 procedure wants next: send a command APDU, or finish.
public enum Type4Action<Output: Sendable>: Sendable {
    /// Send this command and hand the final response (after any `61xx`/`6Cxx` completion) back.
    case send(CommandAPDU)
    /// The procedure is complete.
    case done(Output)
}

/// A Type 4 procedure at the APDU level: it emits command APDUs and consumes response APDUs.
///
/// Procedures never see bytes on the wire; ``Type4Operation`` encodes their commands, completes
/// `61xx` and `6Cxx` answers (`Type4APDUExchange`) and parses the responses. Procedures nest:
/// reading NDEF runs the detection procedure first, then a file read.
public protocol Type4Procedure: Sendable {
    /// What the procedure produces when it is done (``Type4Action/done(_:)``).
    associatedtype Output: Sendable

    /// The first action.
    mutating func start() throws(TagEngineError) -> Type4Action<Output>

    /// The next action, given the final response to the last command.
    mutating func handle(_ response: ResponseAPDU) throws(TagEngineError) -> Type4Action<Output>
}

/// Runs a ``Type4Procedure`` as a ``TagOperation`` over APDU frames.
///
/// The state machine has three states: idle, one APDU exchange in flight (which may take several
/// frames: GET RESPONSE after `61xx`, a retry after `6Cxx`), and finished.
public struct Type4Operation<Procedure: Type4Procedure>: TagOperation {
    /// What the procedure gives when done.
    public typealias Output = Procedure.Output

    enum State: Sendable {
        case idle
        case exchanging(Type4APDUExchange)
        case finished
    }

    /// The procedure being run (its state is visible for tests and diagnostics).
    public private(set) var procedure: Procedure
    let limits: ExchangeLimits
    var state = State.idle

    /// - Parameters:
    ///   - procedure: what to do.
    ///   - limits: the connection's limits, which bound every frame.
    public init(_ procedure: Procedure, limits: ExchangeLimits) {
        self.procedure = procedure
        self.limits = limits
    }

    /// The first frame of the procedure's first command, or done.
    /// - Throws: `.unexpectedResponse` when started twice; the procedure's errors.
    public mutating func start() throws(TagEngineError) -> TagStep<Output> {
        guard case .idle = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 operation started twice")
        }
        return try perform(procedure.start())
    }

    /// Completes the APDU exchange (GET RESPONSE after `61xx`, a retry after `6Cxx`), then hands the
    /// response to the procedure and sends its next command.
    /// - Throws: `.unexpectedResponse` with no command in flight; transport failures; the procedure's errors.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Output> {
        guard case .exchanging(var exchange) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 4 operation resumed with no command in flight")
        }
        state = .finished
        let answer = try outcome.answer()
        switch try exchange.receive(answer) {
        case .send(let frame):
            state = .exchanging(exchange)
            return .transceive(frame, timeout: exchange.timeout)
        case .complete(let response):
            return try perform(procedure.handle(response))
        }
    }

    private mutating func perform(_ action: Type4Action<Output>) throws(TagEngineError) -> TagStep<Output> {
        switch action {
        case .done(let output):
            state = .finished
            return .done(output)
        case .send(let command):
            var exchange = Type4APDUExchange(command, limits: limits)
            let frame = try exchange.start()
            state = .exchanging(exchange)
            return .transceive(frame, timeout: exchange.timeout)
        }
    }
}
