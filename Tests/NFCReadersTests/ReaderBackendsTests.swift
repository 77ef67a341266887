import Foundation
import NFCReaders
import NFCSimulator
import NFCTransport
import Testing

#if Simulator
/// Opening the reader a name names, for Core NFC sessions.
struct ReaderBackendsTests {
    private func temporaryImage() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString).json").path
        try TagImageStore.create(try SimulatorHome.welcomeTag(), at: path)
        return path
    }

    /// The tag is in the field when the driver is handed out: the first poll finds it (a session
    /// that begins at once must not race the tag's placement).
    @Test func aSimulatorImageIsInTheFieldAtOnce() async throws {
        #expect(ReaderBackends.hasSimulator)
        let path = try temporaryImage()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try ReaderBackends.sessionDriver(for: .simulator(path: path))
        let targets = try await driver.targets(matching: .all)
        #expect(targets.count == 1)
        #expect(targets.first?.technology == .iso14443A)
        #expect(driver.name == "sim:\(path)")
    }

    @Test func aMissingImageIsUnavailableAndSaysWhere() throws {
        let path = "/nonexistent-\(UUID().uuidString)/tag.json"
        do {
            _ = try ReaderBackends.sessionDriver(for: .simulator(path: path))
            Issue.record("opened a missing image")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.reason.contains(path))
        }
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
#else
/// Without the Simulator trait, `sim` names a backend this build does not have.
struct ReaderBackendsWithoutSimulatorTests {
    @Test func simIsAnUnsupportedBackend() {
        #expect(ReaderBackends.hasSimulator == false)
        #expect(throws: ReaderNameError(.unsupportedBackend, "")) { try ReaderBackends.sessionDriver(for: .simulator(path: nil)) }
    }
}
#endif

#if !PCSC
/// Without the PCSC trait, `pcsc` names a backend this build does not have.
struct ReaderBackendsWithoutPCSCTests {
    @Test func pcscIsAnUnsupportedBackend() {
        #expect(ReaderBackends.hasPCSC == false)
        #expect(throws: ReaderNameError(.unsupportedBackend, "")) { try ReaderBackends.sessionDriver(for: .pcsc(filter: nil)) }
    }
}
#endif
