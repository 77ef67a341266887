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

    @Test func warningsOnlyExit1() async throws {
        let result = try await NFCTool.run(["lint", try write(info)])
        #expect(result.status == 1)
        #expect(result.stdout.contains("warning [entitlements.not-checked]"))
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
