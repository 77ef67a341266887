import Foundation
import NFCTestSupport
import Testing

/// Rules stated end to end, from outside sources, where a planted slip passed every other test
/// (issue 24): RFC 4226's HOTP values through `nfc oath` and the emulated applet, and every record
/// option in both spellings ArgumentParser accepts.
@Suite(.serialized) struct RuleCommandTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// RFC 4226 Appendix D: secret "12345678901234567890" (Base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ),
    /// HOTP-SHA1 6 digits for counters 0 to 9.
    static let rfc4226 = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]

    @Test("nfc oath code gives RFC 4226's HOTP values through the emulated applet, the counter kept across runs")
    func hotpEndToEnd() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("key.json").path
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", image]).status == 0)
        let added = try await NFCTool.run([
            "oath", "add", "rfc4226", "--secret", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "--hotp", "--reader", "sim:" + image,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        var codes: [String] = []
        for _ in Self.rfc4226 {
            let code = try await NFCTool.run(["oath", "code", "rfc4226", "--reader", "sim:" + image])
            codes.append(String(code.stdout.split(separator: " ").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(codes == Self.rfc4226)
    }

    @Test(
        "Every record option means the same as --opt value and --opt=value",
        arguments: [
            ["--uri", "https://example.com/a=b"],
            ["--text", "x=y", "--lang", "fr"],
            ["--mime", "text/plain", "--payload-hex", "3d3d"],
            ["--external", "example.com:t", "--payload-hex", "01"],
        ])
    func equalsSpelling(arguments: [String]) async throws {
        var joined: [String] = []
        var index = 0
        while index < arguments.count {
            joined.append(arguments[index] + "=" + arguments[index + 1])
            index += 2
        }
        let spaced = try await NFCTool.run(["ndef", "encode"] + arguments)
        let equals = try await NFCTool.run(["ndef", "encode"] + joined)
        #expect(spaced.status == 0 && equals.status == 0, "\(spaced.stderr) \(equals.stderr)")
        #expect(spaced.stdout == equals.stdout, "\(joined)")
        #expect(!spaced.stdout.isEmpty)
        // The value after the first "=" is kept whole ("--uri=https://example.com/a=b").
        if arguments[0] == "--uri" {
            let decoded = try await NFCTool.run(["ndef", "decode", spaced.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
            #expect(decoded.stdout.contains("URI: https://example.com/a=b"))
        }
    }

    @Test func equalsSpellingWithAFile() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = directory.appendingPathComponent("p.txt")
        try Data("payload".utf8).write(to: payload)
        let spaced = try await NFCTool.run(["ndef", "encode", "--mime", "text/plain", "--payload-file", payload.path])
        let equals = try await NFCTool.run(["ndef", "encode", "--mime=text/plain", "--file=" + payload.path])
        #expect(spaced.status == 0 && spaced.stdout == equals.stdout)
    }
}

/// The NDEF JSON form loses nothing a record holds: what `decode --json` prints, `encode` turns
/// back into the same bytes (docs/ndef-json.md).
@Suite struct NDEFJSONRoundTripCommandTests {
    @Test("a Smart Poster with a nested record of another type: decode --json, then encode, gives the same bytes")
    func smartPosterOtherRecordsSurvive() async throws {
        // Sp { U "https://abc.", text/plain "hi" } — the text/plain record is neither title nor icon.
        let hex = "d10218537091010555046162632e520a02746578742f706c61696e6869"
        let decoded = try await NFCTool.run(["ndef", "decode", "--json", "--lines"], stdin: hex + "\n")
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout.contains("\"otherRecords\""), "\(decoded.stdout)")
        // Encode from the typed fields alone (the payload hex removed), as a user editing the JSON would.
        let typedOnly = decoded.stdout.replacingOccurrences(
            of: #""payload":"91010555046162632e520a02746578742f706c61696e6869","#, with: "")
        #expect(typedOnly != decoded.stdout, "the poster's payload was not found to remove")
        let encoded = try await NFCTool.run(["ndef", "encode", "--lines"], stdin: typedOnly)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == hex)
    }
}
