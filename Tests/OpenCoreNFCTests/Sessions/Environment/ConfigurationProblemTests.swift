import Foundation
import Testing

@testable import OpenCoreNFC

/// A bad Info.plist named by `OPENCORENFC_INFO_PLIST` is a reason, not a silent "no configuration".
@Suite struct ConfigurationProblemTests {
    @Test func anUnreadableOrMalformedInfoPlistSaysWhichFileAndWhy() throws {
        let missing = NFCSessionEnvironment.configurationFromEnvironment(["OPENCORENFC_INFO_PLIST": "/nonexistent/Info.plist"])
        #expect(missing.configuration == nil)
        #expect(missing.problem?.contains("/nonexistent/Info.plist") == true)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("opencorenfc-bad-\(UUID().uuidString).plist")
        try Data("<plist><dict><key>NFCReaderUsageDescription</key><integer>3</integer></dict></plist>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let malformed = NFCSessionEnvironment.configurationFromEnvironment(["OPENCORENFC_INFO_PLIST": file.path])
        #expect(malformed.configuration == nil)
        #expect(malformed.problem?.contains("NFCReaderUsageDescription") == true)

        #expect(NFCSessionEnvironment.configurationFromEnvironment([:]).problem == nil)
    }
}
