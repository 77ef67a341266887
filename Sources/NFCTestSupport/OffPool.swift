import Foundation

/// Runs blocking work — waiting for a child process, reading a pipe to its end, waiting on a
/// semaphore or a condition — on a thread of its own, and resumes the caller when it is done.
///
/// Swift's cooperative pool has one thread per core. A test that blocks one of them stalls every
/// other test's tasks behind it: on a 2-core machine, two `nfc` processes awaited synchronously
/// held the whole pool, and under the thread sanitizer (where each process takes seconds) the
/// suite's async tests sat unscheduled for minutes (docs/hardening.md).
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

/// ``offCooperativePool(_:)`` for work that cannot fail.
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.start()
    }
}
