import Foundation
import Testing

@testable import nfc

/// `nfc apdu --script`: scriptor-shaped scripts (comments, reset, expect), each answer with its
/// ISO 7816-4 meaning, on a simulated Type 4 tag.
@Suite(.serialized, .timeLimit(.minutes(1))) struct APDUScriptCommandTests {
    static let selectApp = "00 A4 04 00 07 D2 76 00 00 85 01 01 00"
    static let selectCC = "00 A4 00 0C 02 E1 03"
    static let readCC = "00 B0 00 00 02"

    private func type4() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apdu-\(UUID().uuidString).json").path
        #expect(try await NFCTool.run(["tag", "new", "type4", "-o", path]).status == 0)
        return path
    }

    @Test func aScriptRunsWithCommentsResetAndMeanings() async throws {
        let tag = try await type4()
        let script = """
            # the NDEF application, then its capability container
            \(Self.selectApp)   expect 9000
            \(Self.selectCC)    # P2 0C: no answer data
            \(Self.readCC)      expect 9000

            reset               # the card forgets what was selected
            \(Self.readCC)      expect 6xxx
            00 A4 04 00 07 D2 76 00 00 85 01 02 00
            quit
            00 00 00 00         # never sent
            """
        let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", "-"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("> ") }.count == 5, "\(result.stdout)")
        #expect(lines.contains("< 9000  (normal processing)"))
        #expect(lines.contains { $0.hasPrefix("< 000f 9000") }, "CCLEN 15")
        #expect(lines.contains { $0.hasPrefix("reset: ") })
        #expect(lines.contains("< 6a82  (file or application not found)"), "\(result.stdout)")
        let afterReset = try #require(lines.firstIndex { $0.hasPrefix("reset: ") })
        #expect(!lines[afterReset + 2].contains("9000"), "READ BINARY fails once the card is reset: \(lines[afterReset + 2])")
    }

    @Test func anUnexpectedStatusStopsTheScript() async throws {
        let tag = try await type4()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString).apdu")
        try Data("\(Self.selectApp)\n00 A4 04 00 07 D2 76 00 00 85 01 02 00 expect 90xx\n\(Self.readCC)\n".utf8).write(to: file)
        let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", file.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("line 2: expected 90xx, the card answered 6A82 (file or application not found); the script stopped"),
            "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("> ") }.count == 2, "line 3 never ran")

        let json = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", file.path, "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let responses = try #require(object["responses"] as? [[String: Any]])
        #expect(responses.count == 2)
        #expect(responses.last?["meaning"] as? String == "file or application not found")
        #expect(responses.last?["expected"] as? String == "90xx" && responses.last?["line"] as? Int == 2)
        #expect((object["stopped"] as? [String: Any])?["line"] as? Int == 2)
    }

    @Test func aBadScriptIsRefusedBeforeAnythingIsSent() async throws {
        let tag = try await type4()
        let before = try Data(contentsOf: URL(fileURLWithPath: tag))
        for (script, message) in [
            ("\(Self.selectApp)\n00 A4 zz\n", "line 2: 00 A4 zz is neither an APDU in hex nor reset/quit"),
            ("\(Self.selectApp) expect 9\n", "line 1: expect 9: give a status word"),
            ("00\n", "line 1: 00 is not a command APDU"),
        ] {
            let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", "-"], stdin: script)
            #expect(result.status == 2 && result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: tag)) == before)
        let both = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", "-", "00A4040000"])
        #expect(both.status != 0 && both.stderr.contains("not both"))
    }

    @Test func windowsLineEndsSplitLines() async throws {
        let tag = try await type4()
        let script = "# a comment first\r\n\(Self.selectApp) expect 9000\r\n00 A4 04 00 07 D2 76 00 00 85 01 02 00 expect 9000\r\n"
        let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, "--script", "-"], stdin: script)
        #expect(result.status == 1 && result.stderr.contains("line 3: expected 9000"), "every line ran: \(result.stderr)")
    }

    @Test func standardInputWithoutArgumentsIsAScript() async throws {
        let tag = try await type4()
        let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag], stdin: "\(Self.selectApp) expect 9000\n")
        #expect(result.status == 0 && result.stdout.contains("< 9000  (normal processing)"), "\(result.stderr)")
    }

    @Test func argumentsKeepTheirPlainOutput() async throws {
        let tag = try await type4()
        let result = try await NFCTool.run(["apdu", "--reader", "sim:" + tag, Self.selectApp, "00A4000C02E103", Self.readCC])
        #expect(result.stdout == "9000\n9000\n000f 9000\n", "DATA SW per line, as before")
    }

    @Test func statusPatterns() throws {
        let any61 = try #require(APDUScript.StatusPattern("61xx"))
        #expect(any61.matches(.init(rawValue: 0x6110)) && !any61.matches(.init(rawValue: 0x6210)))
        #expect(APDUScript.StatusPattern("90 00")?.matches(.success) == true)
        #expect(APDUScript.StatusPattern("63cX")?.matches(.init(rawValue: 0x63C2)) == true)
        #expect(APDUScript.StatusPattern("900") == nil && APDUScript.StatusPattern("90g0") == nil)
        #expect(try APDUScript.step("  # only a comment", number: 1) == nil)
        #expect(try APDUScript.step("RESET", number: 1) == .reset)
        #expect(try APDUScript.steps("exit\n00A4040000\n").count == 1, "nothing after quit/exit is read")
    }
}
