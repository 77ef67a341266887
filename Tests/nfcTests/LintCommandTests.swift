import Foundation
import Testing

/// `nfc lint`: exit status 0 / 1 / 2, text and JSON, XML and binary property lists.
@Suite struct LintCommandTests {
    private func write(_ plist: [String: Any], binary: Bool = false) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).plist")
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: binary ? .binary : .xml, options: 0)
        try data.write(to: url)
        return url.path
    }

    private let info: [String: Any] = [
        "NFCReaderUsageDescription": "Reads the tags on our posters.",
        "com.apple.developer.nfc.readersession.iso7816.select-identifiers": ["D2760000850101"],
        "com.apple.developer.nfc.readersession.felica.systemcodes": ["12FC"],
    ]
    private let entitlements: [String: Any] = ["com.apple.developer.nfc.readersession.formats": ["TAG"]]

    @Test("a clean configuration exits 0, XML or binary", arguments: [false, true])
    func clean(binary: Bool) async throws {
        let result = try await NFCTool.run(["lint", try write(info, binary: binary), try write(entitlements, binary: binary)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ok: no NFC configuration problems"))
    }

    @Test func notesOnlyExit0() async throws {
        let result = try await NFCTool.run(["lint", try write(info)])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("note [entitlements.not-checked]"))
        #expect(result.stdout.contains("0 error(s), 0 warning(s), 1 note(s)"))
    }

    @Test func warningsExit1() async throws {
        var repeated = info
        repeated["com.apple.developer.nfc.readersession.iso7816.select-identifiers"] = ["D2760000850101", "D2760000850101"]
        let result = try await NFCTool.run(["lint", try write(repeated), try write(entitlements)])
        #expect(result.status == 1)
        #expect(result.stdout.contains("warning [iso7816.duplicate]"))
    }

    /// The case: an authenticator app with ISO 7816 AIDs that never polls FeliCa. Without
    /// its sources the missing system codes are a note (exit 0); with them, nothing at all.
    @Test func anAuthenticatorAppIsCleanWithItsSources() async throws {
        var authenticator = info
        authenticator["com.apple.developer.nfc.readersession.felica.systemcodes"] = nil
        authenticator["com.apple.developer.nfc.readersession.iso7816.select-identifiers"] = ["A0000005272101", "A0000006472F0001"]
        let plist = try write(authenticator)
        let rights = try write(entitlements)
        let guess = try await NFCTool.run(["lint", plist, rights])
        #expect(guess.status == 0 && guess.stdout.contains("note [felica.missing]"), "\(guess.stdout)")

        let sources = FileManager.default.temporaryDirectory.appendingPathComponent("lint-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: sources.appendingPathComponent("Reader"), withIntermediateDirectories: true)
        try Data(
            """
            import CoreNFC
            final class KeyReader: NSObject, NFCTagReaderSessionDelegate {
                static let oath: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]
                func begin() { NFCTagReaderSession(pollingOption: [.iso14443], delegate: self)?.begin() }
                func selectFIDO(_ tag: NFCISO7816Tag) {
                    // "00A4040008A0000006472F0001" is what U2F sends:
                    let apdu = NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00, 0x08, 0xA0, 0x00, 0x00, 0x06, 0x47, 0x2F, 0x00, 0x01]))
                }
            }
            """.utf8
        ).write(to: sources.appendingPathComponent("Reader/KeyReader.swift"))
        let checked = try await NFCTool.run(["lint", plist, rights, "--sources", sources.path])
        #expect(checked.status == 0 && checked.stdout.contains("ok: no NFC configuration problems"), "\(checked.stdout)")

        // The same sources polling FeliCa too: the missing system codes are now an error.
        try Data("let options: NFCTagReaderSession.PollingOption = [.iso14443, .iso18092]".utf8)
            .write(to: sources.appendingPathComponent("Polling.swift"))
        let felica = try await NFCTool.run(["lint", plist, rights, "--sources", sources.path])
        #expect(felica.status == 2 && felica.stdout.contains("error [felica.missing]"), "\(felica.stdout)")

        let nowhere = try await NFCTool.run(["lint", plist, rights, "--sources", sources.appendingPathComponent("missing").path])
        #expect(
            nowhere.status == 2 && nowhere.stdout.contains("[plist.unreadable]") && nowhere.stdout.contains("sources"), "\(nowhere.stdout)")
    }

    @Test func errorsExit2WithCodeKeyAndFixInJSON() async throws {
        var bad = info
        bad["NFCReaderUsageDescription"] = nil
        bad["com.apple.developer.nfc.readersession.iso7816.select-identifiers"] = ["A0000000041010", "D27600"]
        let result = try await NFCTool.run(["lint", "--json", try write(bad), try write(entitlements)])
        #expect(result.status == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let codes = findings.compactMap { $0["code"] as? String }
        #expect(codes.contains("usage-description.missing"))
        #expect(codes.contains("iso7816.payment"))
        #expect(codes.contains("iso7816.malformed"))
        #expect(findings.allSatisfy { ($0["fix"] as? String)?.isEmpty == false })
        #expect(json["exitStatus"] as? Int == 2)
    }

    @Test func unreadableFileIsOneError() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString).plist")
        try Data("not a plist".utf8).write(to: url)
        let result = try await NFCTool.run(["lint", url.path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("error [plist.unreadable]"))
    }
}
