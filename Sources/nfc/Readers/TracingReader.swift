import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport

/// `--trace`: every frame or APDU a command exchanges with the tag, on standard error as it
/// happens — direction, bytes, and the time the exchange took: the simulator's air time (its
/// model of the RF link), or the wall-clock time a hardware reader took (PC/SC, a PN532), as
/// pcsc-spy or a Proxmark trace shows an exchange.
///
/// ```text
/// trace  1  > 3004
/// trace  1  < 0103a00c340300fe0000000000000000  (air 0.472 ms)
/// trace  2  > 00b0000002
/// trace  2  ! timeout  (wall 5000.101 ms)
/// ```
struct TracingReader: CLIReader {
    let inner: any CLIReader
    /// `air` for the simulator, `wall` for hardware.
    let clock: String
    private let counter = Guarded(0)

    init(_ inner: any CLIReader) {
        self.inner = inner
        clock = inner is SimulatedReader ? "air" : "wall"
    }

    var meter: AirTimeMeter { inner.meter }
    var resetRefusal: String? { inner.resetRefusal }

    func connect() async throws -> any TagConnection {
        let connection = try await inner.connect()
        let target = connection.target
        Output.error("trace     activated \(target.technology) \(Hex.encode(target.identifier))")
        return TracingConnection(inner: connection, clock: clock, counter: counter)
    }

    func allTargets() async throws -> [TargetInfo]? { try await inner.allTargets() }

    func connect(to target: TargetInfo) async throws -> any TagConnection {
        let connection = try await inner.connect(to: target)
        Output.error("trace     activated \(target.technology) \(Hex.encode(target.identifier))")
        return TracingConnection(inner: connection, clock: clock, counter: counter)
    }

    func finish() async throws -> TagImageSaveOutcome { try await inner.finish() }
}

/// A connection that prints each exchange (``TracingReader``) and passes it on unchanged.
final class TracingConnection: TagConnection {
    let inner: any TagConnection
    let clock: String
    let counter: Guarded<Int>

    init(inner: any TagConnection, clock: String, counter: Guarded<Int>) {
        self.inner = inner
        self.clock = clock
        self.counter = counter
    }

    var target: TargetInfo { inner.target }
    var limits: ExchangeLimits { inner.limits }
    var bitRate: BitRate { inner.bitRate }
    var meter: AirTimeMeter { inner.meter }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        let number = counter.withLock {
            $0 += 1
            return $0
        }
        let tag = String(format: "trace %3d", number)
        Output.error("\(tag)  > \(Hex.encode(command))")
        let before = meter.statistics.airTime
        do {
            let answer = try await inner.transceive(command, timeout: timeout)
            Output.error("\(tag)  < \(answer.isEmpty ? "(nothing)" : Hex.encode(answer))  (\(took(since: before)))")
            return answer
        } catch {
            Output.error("\(tag)  ! \(error.code)  (\(took(since: before)))")
            throw error
        }
    }

    func reactivate() async throws(TransportError) {
        Output.error("trace     reactivate")
        try await inner.reactivate()
    }

    func disconnect() async {
        await inner.disconnect()
    }

    private func took(since before: Duration) -> String {
        let spent = meter.statistics.airTime - before
        let (seconds, attoseconds) = spent.components
        return String(format: "\(clock) %.3f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }
}
