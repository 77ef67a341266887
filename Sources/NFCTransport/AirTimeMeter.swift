import NFCBytes

/// Commands, bytes and air time counted over some span (a connection, a session, a field).
///
/// Bytes are those the caller passed to and got from `transceive` (no CRC, LEN or ISO-DEP
/// framing); air time includes all framing, turnarounds and tag processing.
public struct ExchangeStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The number of exchanges recorded.
    public var commands: Int
    /// Bytes the caller sent, summed over the exchanges.
    public var bytesSent: Int
    /// Bytes the caller got back, summed over the exchanges.
    public var bytesReceived: Int
    /// Time on the air, framing, turnarounds and tag processing included: the simulator's model, or wall-clock time for hardware.
    public var airTime: Duration

    /// Makes statistics from given totals; all default to zero.
    public init(commands: Int = 0, bytesSent: Int = 0, bytesReceived: Int = 0, airTime: Duration = .zero) {
        self.commands = commands
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.airTime = airTime
    }

    /// Air time in whole microseconds (rounded), the unit `--stats` prints.
    public var airTimeMicroseconds: Int64 {
        let (seconds, attoseconds) = airTime.components
        return seconds * 1_000_000 + (attoseconds + 500_000_000_000) / 1_000_000_000_000
    }

    /// Adds two spans' totals field by field.
    public static func + (lhs: ExchangeStatistics, rhs: ExchangeStatistics) -> ExchangeStatistics {
        ExchangeStatistics(
            commands: lhs.commands + rhs.commands,
            bytesSent: lhs.bytesSent + rhs.bytesSent,
            bytesReceived: lhs.bytesReceived + rhs.bytesReceived,
            airTime: lhs.airTime + rhs.airTime
        )
    }

    /// One line for `--stats`: `N commands, N B sent, N B received, N µs air time`.
    public var description: String {
        "\(commands) commands, \(bytesSent) B sent, \(bytesReceived) B received, \(airTimeMicroseconds) µs air time"
    }
}

/// A thread-safe counter every driver reports each exchange into.
///
/// The simulator reports the air time of its model; a hardware driver reports the wall-clock
/// time of each exchange.
public final class AirTimeMeter: Sendable {
    private let state = Guarded(ExchangeStatistics())

    /// A meter at zero.
    public init() {}

    /// Adds one exchange.
    public func record(sent: Int, received: Int, airTime: Duration) {
        state.withLock {
            $0.commands += 1
            $0.bytesSent += sent
            $0.bytesReceived += received
            $0.airTime += airTime
        }
    }

    /// Runs one exchange of `command` and records it with the wall-clock time it took: for
    /// drivers whose exchanges leave the process (a serial line, a socket), where that time is
    /// the air time's stand-in. A failed exchange is recorded with nothing received.
    public func measure(
        sending command: [UInt8], _ exchange: () async throws(TransportError) -> [UInt8]
    ) async throws(TransportError) -> [UInt8] {
        let clock = ContinuousClock()
        let start = clock.now
        do throws(TransportError) {
            let answer = try await exchange()
            record(sent: command.count, received: answer.count, airTime: start.duration(to: clock.now))
            return answer
        } catch {
            record(sent: command.count, received: 0, airTime: start.duration(to: clock.now))
            throw error
        }
    }

    /// Adds air time that carried no command of the caller's (activation, chaining overhead is
    /// counted with its command instead).
    public func record(airTime: Duration) {
        state.withLock { $0.airTime += airTime }
    }

    /// The totals so far.
    public var statistics: ExchangeStatistics { state.withLock { $0 } }

    /// Returns the totals so far and starts again from zero.
    @discardableResult
    public func reset() -> ExchangeStatistics {
        state.withLock {
            let old = $0
            $0 = ExchangeStatistics()
            return old
        }
    }
}
