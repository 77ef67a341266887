#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that one thread at a time may read or change, under a `pthread_mutex_t`.
///
/// The project's lock, used instead of `Synchronization.Mutex`, with the same `withLock` shape
/// (`inout sending` value, `sending` result, typed throws). The reason is the thread sanitizer:
/// on Linux, `Mutex` locks with futex calls inside the uninstrumented Swift runtime, so TSan sees
/// no ordering between two critical sections. It then reported Mutex-protected state as racing
/// and, worse, any object handed from one task to another through a Mutex-protected table as a
/// race on the object itself — intermittently, and beyond the reach of a suppression that does not
/// also hide real races (docs/hardening.md). `pthread_mutex_lock` is intercepted by TSan, so
/// every critical section here is ordered in its eyes, and the suite needs no suppression for our
/// own locks. Uncontended, both cost a few tens of nanoseconds.
public final class Guarded<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock around `initialValue`.
    public init(_ initialValue: sending Value) {
        value = initialValue
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock (not reentrant: never call `withLock`
    /// on the same instance from inside `body`).
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
