import Foundation
import ISO7816
import NFCBytes

extension NFCAuthenticator {
    /// Queues a command; it runs after every command submitted before it, alone on the card.
    ///
    /// The exchange is completed as ISO/IEC 7816-4 describes (`APDUTransmitter.send(_:options:)`):
    /// `61xx` answers are collected with GET RESPONSE, `6Cxx` repeats the command with the right
    /// Le, and a data field over 255 bytes goes extended or chained.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - options: How the exchange is completed.
    ///   - timeout: The longest the command may run once started (on
    ///     ``NFCSessionEnvironment/clock``); negative: no limit. When it passes, `onTimeout` is
    ///     called, the command fails with ``NFCAuthenticatorError/timedOut(after:)``, its late
    ///     answer is discarded and the next command starts.
    ///   - onTimeout: Called (on ``callbackQueue``, before `completion`) when the timeout passes.
    ///   - completion: The response or the failure, on ``callbackQueue``.
    /// - Returns: The command's number, for ``cancel(_:)``.
    @discardableResult
    public func execute(
        _ command: CommandAPDU, options: APDUExchangeOptions = .standard, timeout: Duration = .seconds(-1),
        onTimeout: (@Sendable () -> Void)? = nil, completion: @escaping @Sendable (Result<ResponseAPDU, any Error>) -> Void
    ) -> NFCAuthenticatorCommandID {
        NFCAuthenticatorCommandID(
            rawValue: queue.submit(.exchange(command, options), timeout: Self.limit(timeout), onTimeout: onTimeout, completion: completion))
    }

    /// Queues a Core NFC APDU; the result is Core NFC's response type. As the
    /// completion form of `execute(_:options:timeout:onTimeout:completion:)` for `CommandAPDU`.
    /// An APDU whose fields cannot be encoded is not queued: its completion gets the
    /// `APDUError` and the number returned is 0 (queued commands are numbered from 1).
    @discardableResult
    public func execute(
        _ apdu: NFCISO7816APDU, timeout: Duration = .seconds(-1), onTimeout: (@Sendable () -> Void)? = nil,
        completion: @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void
    ) -> NFCAuthenticatorCommandID {
        let operation: APDUCommandQueue.Operation
        do {
            operation = .exchange(try Self.command(apdu), .standard)
        } catch {
            callbackQueue.async { completion(.failure(error)) }
            return NFCAuthenticatorCommandID(rawValue: 0)
        }
        let id = queue.submit(operation, timeout: Self.limit(timeout), onTimeout: onTimeout) { result in
            completion(
                result.map {
                    NFCISO7816ResponseAPDU(statusWord1: $0.statusWord.sw1, statusWord2: $0.statusWord.sw2, payload: Data($0.data))
                })
        }
        return NFCAuthenticatorCommandID(rawValue: id)
    }

    /// Queues a command and waits for its response; cancelling the task cancels the command.
    /// As the completion form.
    public func execute(
        _ command: CommandAPDU, options: APDUExchangeOptions = .standard, timeout: Duration = .seconds(-1),
        onTimeout: (@Sendable () -> Void)? = nil
    ) async throws -> ResponseAPDU {
        try await awaitCommand(.exchange(command, options), timeout: timeout, onTimeout: onTimeout)
    }

    /// Queues a Core NFC APDU and waits for its response; cancelling the task cancels the command.
    public func execute(
        _ apdu: NFCISO7816APDU, timeout: Duration = .seconds(-1), onTimeout: (@Sendable () -> Void)? = nil
    ) async throws -> NFCISO7816ResponseAPDU {
        let response = try await awaitCommand(.exchange(try Self.command(apdu), .standard), timeout: timeout, onTimeout: onTimeout)
        return NFCISO7816ResponseAPDU(
            statusWord1: response.statusWord.sw1, statusWord2: response.statusWord.sw2, payload: Data(response.data))
    }

    /// Cancels one command: it leaves the queue, or is abandoned while it runs (its answer is
    /// discarded); it fails with ``NFCAuthenticatorError/cancelled``.
    public func cancel(_ id: NFCAuthenticatorCommandID) {
        queue.cancel(id.rawValue)
    }

    /// Fails the running command and every queued one with ``NFCAuthenticatorError/cancelled``.
    /// The session and the card stay as they are; commands submitted afterwards run normally.
    public func cancelAll() {
        queue.cancelAll()
    }

    /// How many commands wait or run.
    public var pendingCommandCount: Int { queue.count }

    // MARK: Helpers

    /// A negative timeout means none.
    static func limit(_ timeout: Duration) -> Duration? { timeout < .zero ? nil : timeout }

    static func command(_ apdu: NFCISO7816APDU) throws -> CommandAPDU {
        guard let bytes = apdu.encodedBytes else {
            throw APDUError(.invalidLength, "the APDU's fields cannot be encoded")
        }
        return try CommandAPDU(parsing: [UInt8](bytes))
    }

    /// Submits and waits, cancelling the command when the task is cancelled.
    func awaitCommand(_ operation: APDUCommandQueue.Operation, timeout: Duration, onTimeout: (@Sendable () -> Void)?) async throws
        -> ResponseAPDU
    {
        // A task cancelled before it submits sends nothing.
        if Task.isCancelled { throw NFCAuthenticatorError.cancelled }
        let ticket = CommandTicket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ResponseAPDU, any Error>) in
                let id = queue.submit(operation, timeout: Self.limit(timeout), onTimeout: onTimeout) { result in
                    continuation.resume(with: result)
                }
                if ticket.assign(id) { queue.cancel(id) }
            }
        } onCancel: {
            if let id = ticket.cancel() { queue.cancel(id) }
        }
    }
}

extension NFCAuthenticator: APDUTransmitter {
    /// Sends one command APDU as it is, as one queued command (with ``transmitTimeout``), and
    /// returns its data and status word. `send(_:options:)` over the authenticator therefore
    /// queues each GET RESPONSE or chained part separately: commands submitted meanwhile by
    /// others may run between them.
    public func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        try await awaitCommand(.raw(command), timeout: transmitTimeout, onTimeout: nil).bytes
    }
}

/// Links a waiting task to its command number for cancellation.
final class CommandTicket: Sendable {
    private let state = Guarded<(id: UInt64?, cancelled: Bool)>((nil, false))

    /// Records the number; true when the task was cancelled already.
    func assign(_ id: UInt64) -> Bool {
        state.withLock { state in
            state.id = id
            return state.cancelled
        }
    }

    /// Marks the task cancelled; the number when known.
    func cancel() -> UInt64? {
        state.withLock { state in
            state.cancelled = true
            return state.id
        }
    }
}
