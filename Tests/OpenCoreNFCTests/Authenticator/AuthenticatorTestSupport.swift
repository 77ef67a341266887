import Dispatch
import Foundation
import ISO7816
import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

@testable import OpenCoreNFC

/// A transmitter whose answers the test releases: it records every command it receives and the
/// most exchanges ever in flight at once. `autoAnswer` answers each command at once with its
/// bytes and `9000` (after yielding, to give overlapping exchanges a chance to show).
final class GateTransmitter: APDUTransmitter {
    private struct State {
        var received: [[UInt8]] = []
        var waiting: [(command: [UInt8], continuation: CheckedContinuation<[UInt8], any Error>)] = []
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    private let state = Guarded(State())
    let autoAnswer: Bool
    let supportsExtendedLength = true

    init(autoAnswer: Bool = false) { self.autoAnswer = autoAnswer }

    var received: [[UInt8]] { state.withLock { $0.received } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.received.append(command)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            let count = state.received.count
            let ready = state.arrivalWaiters.filter { $0.count <= count }.map(\.continuation)
            state.arrivalWaiters.removeAll { $0.count <= count }
            return ready
        }
        for waiter in ready { waiter.resume() }
        defer { state.withLock { $0.inFlight -= 1 } }
        if autoAnswer {
            await Task.yield()
            return command + [0x90, 0x00]
        }
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.waiting.append((command, continuation)) }
        }
    }

    /// Waits until `count` commands have arrived in all.
    func arrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.received.count >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends every exchange still waiting with `CancellationError`. A test that abandons an
    /// exchange (its command timed out or was cancelled, and the test never answers it) calls
    /// this at its end; otherwise the exchange's task stays suspended for good, which the leak
    /// sanitizer reports.
    func releaseAll() {
        let waiting = state.withLock { state -> [CheckedContinuation<[UInt8], any Error>] in
            defer { state.waiting = [] }
            return state.waiting.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: CancellationError()) }
    }

    /// Answers the waiting exchange of `command`; false when none waits.
    @discardableResult
    func answer(_ command: [UInt8], with response: Result<[UInt8], any Error>) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8], any Error>? in
            guard let index = state.waiting.firstIndex(where: { $0.command == command }) else { return nil }
            return state.waiting.remove(at: index).continuation
        }
        waiter?.resume(with: response)
        return waiter != nil
    }
}

/// Results of commands, in the order their completions ran (a serial callback queue).
final class CompletionLog: Sendable {
    struct Entry: Sendable {
        let label: String
        let result: Result<ResponseAPDU, any Error>
    }

    private let state = Guarded<(entries: [Entry], waiters: [(Int, UUID, CheckedContinuation<Void, Never>)])>(([], []))

    func record(_ label: String, _ result: Result<ResponseAPDU, any Error>) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.entries.append(Entry(label: label, result: result))
            let count = state.entries.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.2)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    /// A completion handler that records under `label`.
    func handler(_ label: String) -> @Sendable (Result<ResponseAPDU, any Error>) -> Void {
        { self.record(label, $0) }
    }

    /// Waits until `count` results are in, or 30 s of wall time have passed (a lost callback then
    /// fails the test with what did arrive, instead of hanging it); returns them all.
    func wait(for count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Entry] {
        let id = UUID()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.entries.count >= count { return true }
                state.waiters.append((count, id, continuation))
                return false
            }
            if now { continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { [state] in
                let expired = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.1 == id }) else { return nil }
                    return state.waiters.remove(at: index).2
                }
                expired?.resume()
            }
        }
        let arrived = entries
        if arrived.count < count {
            Issue.record(
                "waited 30 s for \(count) results, \(arrived.count) arrived: \(arrived.map(\.label))", sourceLocation: sourceLocation)
        }
        return arrived
    }

    var entries: [Entry] { state.withLock { $0.entries } }

    /// The result recorded under `label`.
    func result(_ label: String) -> Result<ResponseAPDU, any Error>? {
        entries.first { $0.label == label }?.result
    }
}

/// A counter incremented from callbacks.
final class Counter: Sendable {
    private let value = Guarded(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// The authenticator error a result failed with.
func authenticatorError(_ result: Result<ResponseAPDU, any Error>?) -> NFCAuthenticatorError? {
    guard case .failure(let error)? = result else { return nil }
    return error as? NFCAuthenticatorError
}

/// Yields until `condition` holds (the suite's time limit stops a broken test; no wall-clock waits).
func until(_ condition: () -> Bool) async {
    while !condition() {
        if Task.isCancelled { return }
        await Task.yield()
    }
}
