import NFCBytes
import NFCPCSC
import NFCTransport

/// `nfc-bench pcsc --reader NAME [--seconds S] [--apdu HEX]`: APDU round trips per second
/// through `NFCPCSC` to the card in a PC/SC reader (scripts/bench-pcsc.sh runs it beside
/// pyscard against the same emulated card). Prints `rate <round trips per second>`.
enum PCSCRoundTrips {
    static func run(_ arguments: [String]) async throws {
        func value(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            return arguments[index + 1]
        }
        let seconds = value("--seconds").flatMap(Double.init) ?? 3
        let apdu = (try? Hex.decode(value("--apdu") ?? "00A4040007D276000085010100")) ?? []
        let driver = PCSCDriver(readerFilter: value("--reader"))
        guard let target = try await driver.targets(matching: .all).first else {
            print("no tag on \(driver.name)")
            return
        }
        let connection = try await driver.connect(to: target, meter: AirTimeMeter())
        defer { Task { await connection.disconnect() } }
        let clock = ContinuousClock()
        // Warm up, then count round trips for the time given.
        for _ in 0..<100 { _ = try await connection.transceive(apdu, timeout: .seconds(1)) }
        var count = 0
        let start = clock.now
        let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < end {
            _ = try await connection.transceive(apdu, timeout: .seconds(1))
            count += 1
        }
        let elapsed = start.duration(to: clock.now) / .seconds(1)
        print("rate \(Double(count) / elapsed)")
    }
}
