/// A command's deadline on some clock.
struct CommandDeadline: Sendable {
    /// Suspends until the deadline (throws when cancelled).
    let sleep: @Sendable () async throws -> Void
    /// Whether the clock has reached the deadline.
    let hasPassed: @Sendable () -> Bool

    init<C: Clock>(clock: C, after duration: Duration) where C.Duration == Duration {
        let end = clock.now.advanced(by: duration)
        sleep = { try await clock.sleep(until: end, tolerance: nil) }
        hasPassed = { !(clock.now < end) }
    }
}
