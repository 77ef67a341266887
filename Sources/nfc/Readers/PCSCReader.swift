import NFCPCSC
import NFCSimulator
import NFCTransport

/// A PC/SC reader for one CLI command: `pcsc` (the first reader with a tag), `pcsc:NAME`, or a
/// bare NAME (any reader whose name contains it, case-insensitive): ``ReaderName/pcsc(filter:)``.
struct PCSCReader: CLIReader {
    let driver: PCSCDriver
    let meter = AirTimeMeter()

    init(filter: String?, profile: ReaderProfile? = nil) {
        driver = PCSCDriver(readerFilter: filter, profile: profile)
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

    /// The card in each reader the name matches (PC/SC: one card per reader).
    func allTargets() async throws -> [TargetInfo]? {
        do {
            return try await driver.targets(matching: .all)
        } catch {
            throw CLIError("\(driver.name): \(error.reason.isEmpty ? error.code.name : error.reason)")
        }
    }

    func connect(to target: TargetInfo) async throws -> any TagConnection {
        do {
            return try await driver.connect(to: target, meter: meter)
        } catch {
            throw CLIError("\(driver.name): \(error.reason.isEmpty ? error.code.name : error.reason)")
        }
    }

    func finish() async throws -> TagImageSaveOutcome { .unchanged }
}
