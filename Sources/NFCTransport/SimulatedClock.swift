import NFCBytes

/// A clock whose time moves only when told to: the simulator advances it by the air time of each
/// exchange, tests advance it to fire timeouts. Nothing ever sleeps for real.
///
/// `sleep(until:)` suspends until the clock is advanced past the deadline (or the task is
/// cancelled), so code written against `any Clock<Duration>` runs unchanged on it.
public final class SimulatedClock: Clock, Sendable {
    /// A point on the simulated time line: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock was made; negative for an instant before that.
        public var offset: Duration
        /// The instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`; negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier instants come first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// `t+` and the offset, e.g. `t+1.5 seconds`.
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
    }

    private let state = Guarded(State())

    /// A clock at time zero with no sleepers.
    public init() {}

    /// The current simulated time; it changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due.sorted(by: { $0.deadline < $1.deadline }) { sleeper.continuation.resume() }
    }

    /// Moves time forward to an instant (no effect if it is not in the future).
    public func advance(to instant: Instant) {
        let delta = now.duration(to: instant)
        advance(by: delta)
    }

    /// How many tasks are suspended in `sleep` now (lets a test wait until a timer is armed).
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline among the sleepers, if any.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock is advanced to or past `deadline`; returns at once if it already is. `tolerance` is ignored.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the deadline is reached.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .some(CancellationError()) }
                    if deadline <= state.now { return .some(nil) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
