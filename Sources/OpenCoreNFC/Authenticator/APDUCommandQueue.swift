import Dispatch
import Foundation
import ISO7816
import NFCBytes

/// Runs commands over a transmitter strictly one at a time, in submission order, each with an
/// optional timeout on an injected clock: the engine of ``NFCAuthenticator``.
///
/// A command waits in the queue until a transmitter is attached (a tag is connected). It ends
/// exactly once: with the exchange's result, its timeout (the exchange is abandoned and a late
/// answer discarded), its cancellation, or the loss of the transmitter (detach, close). Results
/// are delivered on `callbackQueue`, a serial queue, so they arrive in the order they happen.
final class APDUCommandQueue: Sendable {
    typealias Completion = @Sendable (Result<ResponseAPDU, any Error>) -> Void

    /// What one queued command sends.
    enum Operation: Sendable {
        /// A command completed with ``APDUTransmitter/send(_:options:)`` (GET RESPONSE, `6Cxx`
        /// retry, chaining or extended length).
        case exchange(CommandAPDU, APDUExchangeOptions)
        /// Bytes sent as they are (one `transmit`).
        case raw([UInt8])
    }

    struct Job: Sendable {
        let id: UInt64
        let operation: Operation
        /// nil: no timeout.
        let timeout: Duration?
        let onTimeout: (@Sendable () -> Void)?
        let completion: Completion
    }

    /// The transmitter commands go to, numbered so that a failure reported for an earlier one
    /// does not detach a newer one.
    struct Link: Sendable {
        let transmitter: any APDUTransmitter
        let epoch: UInt64
    }

    private struct Running {
        let job: Job
        let epoch: UInt64
        var tasks: [Task<Void, Never>] = []
    }

    private struct State {
        var nextID: UInt64 = 1
        var nextEpoch: UInt64 = 1
        var pending: [Job] = []
        var running: Running?
        var link: Link?
        /// When set, new commands fail at once with it.
        var refusal: NFCAuthenticatorError? = .notStarted
        /// Told when an exchange fails because its transmitter is gone; nil: the queue detaches.
        var linkFailureHandler: (@Sendable (UInt64, NFCReaderError) -> Void)?
        /// Exchanges that ended after their command had (timed out, cancelled): answers dropped.
        var discarded = 0
    }

    private let state = Guarded(State())
    private let fixedClock: (any Clock<Duration>)?
    let callbackQueue: DispatchQueue

    /// - Parameters:
    ///   - clock: The clock timeouts run on; nil: ``NFCSessionEnvironment/clock`` at each
    ///     command's start.
    ///   - callbackQueue: Where completions and timeout handlers run (a serial queue).
    init(clock: (any Clock<Duration>)? = nil, callbackQueue: DispatchQueue) {
        self.fixedClock = clock
        self.callbackQueue = callbackQueue
    }

    // MARK: Control

    /// Accepts commands again (they wait for a transmitter).
    func open() {
        state.withLock { $0.refusal = nil }
    }

    /// Sets who handles a failed transmitter (see ``Link``).
    func setLinkFailureHandler(_ handler: (@Sendable (UInt64, NFCReaderError) -> Void)?) {
        state.withLock { $0.linkFailureHandler = handler }
    }

    /// Starts sending queued commands to `transmitter`; returns its epoch.
    @discardableResult
    func attach(_ transmitter: any APDUTransmitter) -> UInt64 {
        let epoch = state.withLock { state -> UInt64 in
            let epoch = state.nextEpoch
            state.nextEpoch += 1
            state.link = Link(transmitter: transmitter, epoch: epoch)
            state.refusal = nil
            return epoch
        }
        pump()
        return epoch
    }

    /// The current transmitter's epoch, if one is attached.
    var attachedEpoch: UInt64? { state.withLock { $0.link?.epoch } }

    /// Stops using the transmitter (of `epoch`, when given) and fails the running and queued
    /// commands with `error`; later commands wait for the next transmitter. False when `epoch`
    /// is not the attached one (nothing is done).
    @discardableResult
    func detach(epoch: UInt64? = nil, failing error: NFCAuthenticatorError) -> Bool {
        let taken = state.withLock { state -> [Job]? in
            if let epoch, state.link?.epoch != epoch { return nil }
            state.link = nil
            return Self.takeAll(&state)
        }
        guard let taken else { return false }
        fail(taken, with: error)
        return true
    }

    /// Stops using the transmitter, fails the running and queued commands with `error`, and
    /// refuses new commands with it until ``open()`` or ``attach(_:)``.
    func close(failing error: NFCAuthenticatorError) {
        let taken = state.withLock { state -> [Job] in
            state.link = nil
            state.refusal = error
            return Self.takeAll(&state)
        }
        fail(taken, with: error)
    }

    /// Fails the running and queued commands with ``NFCAuthenticatorError/cancelled``; the queue
    /// stays usable.
    func cancelAll() {
        let taken = state.withLock { Self.takeAll(&$0) }
        fail(taken, with: .cancelled)
        pump()
    }

    /// Cancels one command: removed from the queue, or abandoned while it runs.
    func cancel(_ id: UInt64) {
        let taken = state.withLock { state -> Job? in
            if let index = state.pending.firstIndex(where: { $0.id == id }) {
                return state.pending.remove(at: index)
            }
            if let running = state.running, running.job.id == id {
                state.running = nil
                for task in running.tasks { task.cancel() }
                return running.job
            }
            return nil
        }
        guard let taken else { return }
        fail([taken], with: .cancelled)
        pump()
    }

    /// How many commands wait or run.
    var count: Int { state.withLock { $0.pending.count + ($0.running == nil ? 0 : 1) } }

    /// How many exchanges ended after their command had already ended (their answers dropped).
    var discardedCount: Int { state.withLock { $0.discarded } }

    // MARK: Submitting

    /// Queues a command; returns its number (numbers grow in submission order).
    @discardableResult
    func submit(_ operation: Operation, timeout: Duration?, onTimeout: (@Sendable () -> Void)?, completion: @escaping Completion) -> UInt64
    {
        let (id, refusal) = state.withLock { state -> (UInt64, NFCAuthenticatorError?) in
            let id = state.nextID
            state.nextID += 1
            if let refusal = state.refusal { return (id, refusal) }
            state.pending.append(Job(id: id, operation: operation, timeout: timeout, onTimeout: onTimeout, completion: completion))
            return (id, nil)
        }
        if let refusal {
            callbackQueue.async { completion(.failure(refusal)) }
        } else {
            pump()
        }
        return id
    }

    // MARK: Running

    private static func takeAll(_ state: inout State) -> [Job] {
        var taken: [Job] = []
        if let running = state.running {
            for task in running.tasks { task.cancel() }
            taken.append(running.job)
            state.running = nil
        }
        taken += state.pending
        state.pending = []
        return taken
    }

    private func fail(_ jobs: [Job], with error: NFCAuthenticatorError) {
        guard !jobs.isEmpty else { return }
        callbackQueue.async {
            for job in jobs { job.completion(.failure(error)) }
        }
    }

    /// Starts the next command when none runs and a transmitter is attached.
    private func pump() {
        let next = state.withLock { state -> (Job, Link)? in
            guard state.running == nil, let link = state.link, !state.pending.isEmpty else { return nil }
            let job = state.pending.removeFirst()
            state.running = Running(job: job, epoch: link.epoch)
            return (job, link)
        }
        guard let (job, link) = next else { return }
        start(job, on: link)
    }

    private func start(_ job: Job, on link: Link) {
        let clock: any Clock<Duration> = fixedClock ?? NFCSessionEnvironment.shared.clock
        var deadline: CommandDeadline?
        if let timeout = job.timeout { deadline = CommandDeadline(clock: clock, after: timeout) }
        var tasks: [Task<Void, Never>] = []
        if let deadline {
            tasks.append(
                Task { [weak self] in
                    do {
                        try await deadline.sleep()
                    } catch {
                        return
                    }
                    self?.timedOut(job)
                })
        }
        // Once the command has ended (timeout, cancel), its exchange sends nothing more: a
        // GET RESPONSE or chained part it still had to send would reach the card between the
        // next command's exchanges.
        let transmitter = ScopedTransmitter(base: link.transmitter) { [weak self] in
            self?.state.withLock { $0.running?.job.id == job.id } ?? false
        }
        tasks.append(
            Task { [weak self] in
                let result: Result<ResponseAPDU, any Error>
                do {
                    switch job.operation {
                    case .exchange(let command, let options):
                        result = .success(try await transmitter.send(command, options: options))
                    case .raw(let bytes):
                        result = .success(try ResponseAPDU(parsing: try await transmitter.transmit(bytes)))
                    }
                } catch {
                    result = .failure(error)
                }
                self?.exchangeEnded(job, epoch: link.epoch, result: result, deadline: deadline)
            })
        let abandoned = state.withLock { state -> Bool in
            guard state.running?.job.id == job.id else { return true }
            state.running?.tasks = tasks
            return false
        }
        if abandoned { for task in tasks { task.cancel() } }
    }

    /// Ends the running command if it is still `job`; false when it already ended.
    private func finishRunning(_ job: Job) -> Bool {
        state.withLock { state -> Bool in
            guard let running = state.running, running.job.id == job.id else { return false }
            for task in running.tasks { task.cancel() }
            state.running = nil
            return true
        }
    }

    private func timedOut(_ job: Job) {
        guard finishRunning(job) else { return }
        let timeout = job.timeout ?? .zero
        callbackQueue.async {
            job.onTimeout?()
            job.completion(.failure(NFCAuthenticatorError.timedOut(after: timeout)))
        }
        pump()
    }

    private func exchangeEnded(_ job: Job, epoch: UInt64, result: Result<ResponseAPDU, any Error>, deadline: CommandDeadline?) {
        if case .failure(let error) = result, let lost = Self.connectionFailure(error) {
            let handler = state.withLock { $0.linkFailureHandler }
            if let handler {
                handler(epoch, lost)
            } else {
                detach(epoch: epoch, failing: .tagConnectionLost(lost.failureReasonText))
            }
            return
        }
        // Timed out or cancelled already: the answer is discarded.
        let abandoned = state.withLock { state -> Bool in
            guard state.running?.job.id != job.id else { return false }
            state.discarded += 1
            return true
        }
        if abandoned { return }
        // An answer after the deadline is late, whichever task sees the deadline first.
        if let deadline, deadline.hasPassed() {
            timedOut(job)
            return
        }
        guard finishRunning(job) else { return }
        callbackQueue.async { job.completion(result) }
        pump()
    }

    /// The error when it means the transmitter is gone: the tag left, the connection closed or
    /// the session ended.
    static func connectionFailure(_ error: any Error) -> NFCReaderError? {
        guard let error = error as? NFCReaderError else { return nil }
        switch error.code {
        case .readerTransceiveErrorTagConnectionLost, .readerTransceiveErrorSessionInvalidated, .readerTransceiveErrorTagNotConnected:
            return error
        default:
            return nil
        }
    }
}

/// A transmitter that sends only while its command is the running one.
struct ScopedTransmitter: APDUTransmitter {
    let base: any APDUTransmitter
    let isCurrent: @Sendable () -> Bool

    var supportsExtendedLength: Bool { base.supportsExtendedLength }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        guard isCurrent() else { throw NFCAuthenticatorError.cancelled }
        return try await base.transmit(command)
    }
}
