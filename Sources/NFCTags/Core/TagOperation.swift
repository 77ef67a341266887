import Logging
import NFCBytes
import NFCTransport

/// What a tag operation asks its driver to do next.
///
/// Tag engines are state machines (the swift-nio model): they never do I/O; they return
/// steps, and ``TagOperationRunner`` — or a test — carries them out and feeds the answers back.
public enum TagStep<Output: Sendable>: Sendable {
    /// Send this frame and resume with the answer (see `TagConnection` for what a frame holds).
    case transceive([UInt8], timeout: Duration)
    /// Activate the tag again (after a NAK an NTAG is mute until reactivated) and resume with `[]`.
    case reactivate
    /// The operation is complete.
    case done(Output)
}

/// One operation on a tag (identify, read NDEF, write NDEF, format, make read-only…), as a
/// state machine.
public protocol TagOperation: Sendable {
    /// What the operation produces when it is done (``TagStep/done(_:)``).
    associatedtype Output: Sendable

    /// The first step.
    mutating func start() throws(TagEngineError) -> TagStep<Output>

    /// The next step, given the outcome of the last one: the answer bytes, or the transport's
    /// failure. Operations that can live with a failure (a probe the tag does not answer)
    /// handle it; the others rethrow it as ``TagEngineError``.
    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Output>
}

/// Runs operations over a live connection.
public enum TagOperationRunner {
    /// Runs an operation to completion.
    /// - Throws: ``TagEngineError`` from the operation, which carries any transport failure it
    ///   did not handle.
    public static func run<Operation: TagOperation>(_ operation: inout Operation, on connection: any TagConnection)
        async throws(TagEngineError) -> Operation.Output
    {
        let logger = TagLog.logger
        logger.debug("\(Operation.self) started")
        var step: TagStep<Operation.Output>
        do {
            step = try operation.start()
            while true {
                switch step {
                case .done(let output):
                    logger.debug("\(Operation.self) done")
                    return output
                case .transceive(let frame, let timeout):
                    logger.trace("→ \(Hex.encode(frame))")
                    let outcome: Result<[UInt8], TransportError>
                    do {
                        outcome = .success(try await connection.transceive(frame, timeout: timeout))
                    } catch {
                        outcome = .failure(error)
                    }
                    switch outcome {
                    case .success(let answer): logger.trace("← \(Hex.encode(answer))")
                    case .failure(let error): logger.trace("✗ \(error)")
                    }
                    step = try operation.resume(with: outcome)
                case .reactivate:
                    logger.trace("reactivate")
                    let outcome: Result<[UInt8], TransportError>
                    do {
                        try await connection.reactivate()
                        outcome = .success([])
                    } catch {
                        outcome = .failure(error)
                    }
                    step = try operation.resume(with: outcome)
                }
            }
        } catch {
            logger.debug("\(Operation.self) failed: \(error)")
            throw error
        }
    }

    /// Runs an operation given by value.
    public static func run<Operation: TagOperation>(_ operation: Operation, on connection: any TagConnection) async throws(TagEngineError)
        -> Operation.Output
    {
        var operation = operation
        return try await run(&operation, on: connection)
    }
}

extension Result where Failure == TransportError {
    /// The answer bytes, or the transport failure as a ``TagEngineError``.
    public func answer() throws(TagEngineError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw TagEngineError(transport: error)
        }
    }
}
