import NFCPN532
import NFCSimulator
import NFCTransport

/// A PN532 board for one CLI command: `pn532:PATH[:BAUD]` (``NFCReaders/ReaderName/pn532(path:baudRate:)``),
/// a board on a USB-serial adapter or the virtual PN532 of `nfc emulate --pn532`. The first tag
/// the chip finds (ISO/IEC 14443 A, then FeliCa, then ISO/IEC 14443 B) is the command's tag.
struct PN532Reader: CLIReader {
    let driver: PN532Driver
    let meter = AirTimeMeter()

    init(path: String, baudRate: Int?) {
        driver = PN532Driver(path: path, baudRate: baudRate ?? 115_200)
    }

    func connect() async throws -> any TagConnection {
        do {
            guard let target = try await driver.targets(matching: .all).first else {
                throw CLIError("no tag on \(driver.name)")
            }
            return try await driver.connect(to: target, meter: meter)
        } catch let error as TransportError {
            throw CLIError(error.reason.isEmpty ? "\(driver.name): \(error.code.name)" : error.reason)
        }
    }

    func finish() async throws -> TagImageSaveOutcome { .unchanged }
}
