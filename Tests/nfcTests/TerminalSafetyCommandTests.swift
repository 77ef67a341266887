import Foundation
import NFCTestSupport
import Testing

/// Issue 16, item 4: text from a tag or a card is data. Each output path gets hostile text (ESC
/// sequences that clear the screen and retitle the window, BEL, a line feed that forges a line,
/// a right-to-left override) and must print it escaped, never raw.
@Suite(.serialized) struct TerminalSafetyCommandTests {
    static let hostile = "A\u{1B}[2J\u{1B}]0;pwned\u{07}B\nforged\u{202E}Z"
    static let escaped = #"A\u001B[2J\u001B]0;pwned\u0007B\u000Aforged\u202EZ"#

    /// No byte or character that drives a terminal, in either stream.
    private func expectInert(_ result: NFCTool.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter { scalar in
                (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
            #expect(
                raw.isEmpty, "\(what) \(name) holds raw control characters: \(raw.map { String($0.value, radix: 16) })",
                sourceLocation: sourceLocation)
        }
        let forged = (result.stdout + result.stderr).split(separator: "\n").contains { $0.hasPrefix("forged") }
        #expect(!forged, "\(what): a line was forged", sourceLocation: sourceLocation)
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func textRecordsReadAndDecoded() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag216", "-o", image]).status == 0)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + image, "--text", Self.hostile]).status == 0)
        let read = try await NFCTool.run(["read", "--reader", "sim:" + image])
        expectInert(read, "nfc read")
        #expect(read.stdout.contains(Self.escaped))
        let hex = try await NFCTool.run(["ndef", "encode", "--text", Self.hostile, "--mime", "text/plain", "--payload-hex", "1b5b324a0a"])
            .stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let decoded = try await NFCTool.run(["ndef", "decode", hex])
        expectInert(decoded, "nfc ndef decode")
        #expect(decoded.stdout.contains(Self.escaped) && decoded.stdout.contains(#"\u001B[2J\u000A"#))
        let json = try await NFCTool.run(["read", "--reader", "sim:" + image, "--json"])
        expectInert(json, "nfc read --json")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let records = object?["records"] as? [[String: Any]]
        #expect(records?.first?["text"] as? String == Self.hostile, "the JSON form keeps the text exactly")
    }

    @Test func oathNamesAndErrors() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = "sim:" + directory.appendingPathComponent("k.json").path
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", String(reader.dropFirst(4))]).status == 0)
        let added = try await NFCTool.run(["oath", "add", Self.hostile, "--secret", "JBSWY3DPEHPK3PXP", "--reader", reader])
        expectInert(added, "nfc oath add")
        for command in [["oath", "list"], ["oath", "code"]] {
            let result = try await NFCTool.run(command + ["--reader", reader])
            expectInert(result, command.joined(separator: " "))
            #expect(result.stdout.contains(Self.escaped), "\(command): \(result.stdout)")
        }
        let missing = try await NFCTool.run(["oath", "delete", "x" + Self.hostile, "--reader", reader])
        #expect(missing.status != 0)
        expectInert(missing, "nfc oath delete (error)")
    }

    @Test func pivCertificateNames() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("k.json").path
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", path]).status == 0)
        let subject = "X\u{1B}]0;t\u{07}Y"
        let generated = try await NFCTool.run(["piv", "generate", "9a", "--pin", "123456", "--subject", subject, "--reader", "sim:" + path])
        #expect(generated.status == 0, "\(generated.stderr)")
        expectInert(generated, "nfc piv generate")
        let status = try await NFCTool.run(["piv", "status", "--reader", "sim:" + path])
        expectInert(status, "nfc piv status")
        // RFC 4514 §2.4 escapes the ';' (swift-certificates' attribute text); the terminal escape
        // then makes the control characters visible.
        #expect(status.stdout.contains(#"CN=X\u001B]0\;t\u0007Y"#), "\(status.stdout)")
    }

    @Test func dispatchAndWatchLines() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uri = "https://example.org/\u{202E}gpj.exe"
        let hex = try await NFCTool.run(["ndef", "encode", "--uri", uri, "--text", Self.hostile]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        expectInert(try await NFCTool.run(["dispatch", hex]), "nfc dispatch")
        let field = directory.appendingPathComponent("field")
        try FileManager.default.createDirectory(at: field, withIntermediateDirectories: true)
        let staged = directory.appendingPathComponent("t.json").path
        #expect(try await NFCTool.run(["tag", "new", "ntag216", "-o", staged]).status == 0)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + staged, "--uri", uri]).status == 0)
        let watch = try WatchProcess(["--reader", "sim:" + field.path])
        try FileManager.default.copyItem(atPath: staged, toPath: field.appendingPathComponent("t.json").path)
        let line = try #require(await watch.next()?["unparsed"] as? String)
        _ = await watch.interrupt()
        expectInert(NFCTool.Result(status: 0, stdout: line, stderr: ""), "nfc watch")
        #expect(line.contains("tap"), "\(line)")
    }

    @Test func lintFindingsQuoteThePlistSafely() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("Info.plist")
        let aid = "A0\u{1B}[2J"
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>NFCReaderUsageDescription</key><string>x</string>
            <key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key><array><string>\(aid)</string></array>
            </dict></plist>
            """.utf8
        ).write(to: plist)
        let result = try await NFCTool.run(["lint", plist.path])
        #expect(result.status != 0)
        expectInert(result, "nfc lint")
    }
}
