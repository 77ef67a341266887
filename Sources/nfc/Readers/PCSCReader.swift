import NFCPCSC
import NFCSimulator
import NFCTransport

/// A PC/SC reader for one CLI command: `pcsc` (the first reader with a tag), `pcsc:NAME`, or a
/// bare NAME (any reader whose name contains it, case-insensitive).
struct PCSCReader: CLIReader {
    let driver: PCSCDriver
    let meter = AirTimeMeter()

    init(_ name: String) {
        if name == "pcsc" {
            driver = PCSCDriver()
        } else if name.hasPrefix("pcsc:") {
            driver = PCSCDriver(readerFilter: String(name.dropFirst(5)))
        } else {
            driver = PCSCDriver(readerFilter: name)
        }
    }

    func connect() async throws -> any TagConnection {
        do {
            guard let target = try await driver.targets(matching: .all).first else {
                let readers = (try? driver.readers()) ?? []
                throw CLIError("no tag on \(readers.count == 1 ? readers[0] : "any of the \(readers.count) PC/SC readers")")
            }
            return try await driver.connect(to: target, meter: meter)
        } catch let error as TransportError {
            throw CLIError("\(driver.name): \(error.reason.isEmpty ? error.code.name : error.reason)")
        }
    }

    func finish() async throws -> TagImageSaveOutcome { .unchanged }
}
