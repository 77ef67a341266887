import NFCPN532
import NFCSimulator
import NFCTransport

/// A PN532 board for one CLI command: `pn532:PATH[:BAUD]` (``NFCReaders/ReaderName/pn532(path:baudRate:)``),
/// a board on a USB-serial adapter or the virtual PN532 of `nfc emulate --pn532`. The first tag
/// the chip finds (ISO/IEC 14443 A, then FeliCa, then ISO/IEC 14443 B) is the command's tag; the
/// polls stop there, so the chip still holds the tag and connecting needs no other command.
struct PN532Reader: CLIReader {
    let driver: PN532Driver
    let meter = AirTimeMeter()

    init(path: String, baudRate: Int?) {
        driver = PN532Driver(path: path, baudRate: baudRate ?? 115_200)
    }

    func connect() async throws -> any TagConnection {
        do {
            for technology in [TechnologyMask.iso14443A, .felica, .iso14443B] {
                if let target = try await driver.targets(matching: technology).first {
                    return try await driver.connect(to: target, meter: meter)
                }
            }
            throw CLIError(
                "no tag on \(driver.name) (a PN532 finds ISO/IEC 14443 A and B and FeliCa tags; it cannot read ISO/IEC 15693 ones)")
        } catch let error as TransportError {
            // A missing device is "not found" and a busy one "busy", as for images (README's exit statuses).
            let code: CLIError.Code =
                switch error.code {
                case .noSuchTarget: .notFound
                case .sharingViolation: .busy
                default: .failure
                }
            throw CLIError(code, error.reason.isEmpty ? "\(driver.name): \(error.code.name)" : error.reason)
        }
    }

    /// Every tag the chip lists: up to two ISO/IEC 14443 A tags (InListPassiveTarget MaxTg = 2,
    /// UM0701-02 §7.3.5), then FeliCa and ISO/IEC 14443 B.
    func allTargets() async throws -> [TargetInfo]? {
        do {
            return try await driver.targets(matching: [.iso14443A, .felica, .iso14443B])
        } catch {
            throw CLIError(error.reason.isEmpty ? "\(driver.name): \(error.code.name)" : error.reason)
        }
    }

    func connect(to target: TargetInfo) async throws -> any TagConnection {
        do {
            return try await driver.connect(to: target, meter: meter)
        } catch {
            throw CLIError(error.reason.isEmpty ? "\(driver.name): \(error.code.name)" : error.reason)
        }
    }

    func finish() async throws -> TagImageSaveOutcome { .unchanged }
}
