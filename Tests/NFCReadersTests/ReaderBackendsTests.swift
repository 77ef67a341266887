import Foundation
import NFCReaders
import NFCSimulator
import NFCTransport
import Testing

/// Opening the reader a name names, for Core NFC sessions — with the package's default traits
/// (both backends) and without them (CI's thread-sanitizer run builds with
/// `--disable-default-traits`). The same tests exist in both builds, so both run the same count;
/// each asserts what its build must do.
struct ReaderBackendsTests {
    private func temporaryImage() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString).json").path
        try TagImageStore.create(try SimulatorHome.welcomeTag(), at: path)
        return path
    }

    /// With the Simulator trait the tag is in the field when the driver is handed out: the first
    /// poll finds it (a session that begins at once must not race the tag's placement). Without
    /// it, `sim:PATH` names a backend this build does not have.
    @Test func aSimulatorImageIsInTheFieldAtOnce() async throws {
        let path = try temporaryImage()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #if Simulator
        #expect(ReaderBackends.hasSimulator)
        let driver = try ReaderBackends.sessionDriver(for: .simulator(path: path))
        let targets = try await driver.targets(matching: .all)
        #expect(targets.count == 1)
        #expect(targets.first?.technology == .iso14443A)
        #expect(driver.name == "sim:\(path)")
        #else
        #expect(ReaderBackends.hasSimulator == false)
        #expect(throws: ReaderNameError(.unsupportedBackend, "")) { try ReaderBackends.sessionDriver(for: .simulator(path: path)) }
        #endif
    }

    @Test func aMissingImageIsUnavailableAndSaysWhere() throws {
        let path = "/nonexistent-\(UUID().uuidString)/tag.json"
        do {
            _ = try ReaderBackends.sessionDriver(for: .simulator(path: path))
            Issue.record("opened a missing image")
        } catch {
            #if Simulator
            #expect(error.code == .unavailable)
            #expect(error.reason.contains(path))
            #else
            #expect(error.code == .unsupportedBackend)
            #expect(error.reason.contains("Simulator"))
            #endif
        }
    }

    /// Without the PCSC trait, `pcsc` is an unsupported backend; with it, the driver is made
    /// when the PC/SC library is installed and is otherwise `unavailable` (never a crash).
    @Test func pcscFollowsItsTrait() throws {
        do {
            let driver = try ReaderBackends.sessionDriver(for: .pcsc(filter: "Virtual"))
            #expect(ReaderBackends.hasPCSC)
            #expect(!driver.name.isEmpty)
        } catch {
            #if PCSC
            #expect(error.code == .unavailable)
            #else
            #expect(ReaderBackends.hasPCSC == false)
            #expect(error.code == .unsupportedBackend)
            #endif
        }
    }

    /// Without the PN532 trait, `pn532:PATH` is an unsupported backend; with it, the driver is
    /// made at once (the line opens on first use) and a missing device is a typed error of the
    /// first poll that names the path.
    @Test func pn532FollowsItsTrait() async throws {
        let path = "/nonexistent-\(UUID().uuidString)/ttyUSB0"
        #if PN532
        #expect(ReaderBackends.hasPN532)
        let driver = try ReaderBackends.sessionDriver(for: .pn532(path: path, baudRate: nil))
        #expect(driver.name == "pn532:\(path)")
        do {
            _ = try await driver.targets(matching: .all)
            Issue.record("polled a missing serial device")
        } catch {
            #expect(error.code == .noSuchTarget)
            #expect(error.reason.contains(path))
        }
        #else
        #expect(ReaderBackends.hasPN532 == false)
        #expect(throws: ReaderNameError(.unsupportedBackend, "")) {
            try ReaderBackends.sessionDriver(for: .pn532(path: path, baudRate: nil))
        }
        #endif
    }

    /// The welcome tag holds the Smart Poster the README's first `nfc read` shows.
    @Test func theWelcomeTagHoldsASmartPoster() throws {
        let tag = try SimulatorHome.welcomeTag()
        let memory = tag.image.memory.bytes
        #expect(Array(memory[16..<20]) == [0x03, 0x27, 0xD1, 0x02])
        #expect(memory[16 + 2 + 0x27] == 0xFE)
    }

    /// Creating the default tag twice creates it once and keeps the first.
    @Test func welcomeTagCreationIsIdempotent() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/nested/sim-tag.json"
        #expect(try SimulatorHome.createWelcomeTagIfMissing(at: path))
        #expect(try SimulatorHome.createWelcomeTagIfMissing(at: path) == false)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
