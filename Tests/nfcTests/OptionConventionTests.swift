import Foundation
import Testing

/// One meaning per option across the tool (README "Options"): `--message FILE` is a whole NDEF
/// message in any of its three forms, `--json` is always JSON output, `-o/--output FILE` is every
/// output file and refuses to replace one without `--force`, and the old spellings still work for
/// one release with a deprecation line.
@Suite(.serialized, .timeLimit(.minutes(2))) struct OptionConventionTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    private func image(_ kind: String) async throws -> String {
        let file = path("\(kind)-\(UUID().uuidString).json")
        let created = try await NFCTool.run(["tag", "new", kind, "-o", file])
        #expect(created.status == 0, "\(created.stderr)")
        return file
    }

    /// The same message in the three forms a message file may take.
    private func messageFiles() async throws -> (hex: [UInt8], files: [String: String]) {
        let encoded = try await NFCTool.run(["ndef", "encode", "--uri", "https://example.org", "--text", "hi"])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let hex = encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let binary = path("message.bin")
        let written = try await NFCTool.run(["ndef", "encode", "--uri", "https://example.org", "--text", "hi", "-o", binary])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
        let hexFile = path("message.hex")
        try Data((hex + "\n").utf8).write(to: URL(fileURLWithPath: hexFile))
        let jsonFile = path("message.json")
        let decoded = try await NFCTool.run(["ndef", "decode", hex, "--json"])
        try Data(decoded.stdout.utf8).write(to: URL(fileURLWithPath: jsonFile))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: binary)))
        return (bytes, ["binary": binary, "hex": hexFile, "json": jsonFile])
    }

    @Test func messageFileTakesBinaryHexAndJSON() async throws {
        let (bytes, files) = try await messageFiles()
        #expect(bytes.first.map { $0 & 0x80 != 0 } == true, "a binary message starts with MB set")
        for (form, file) in files.sorted(by: { $0.key < $1.key }) {
            let decoded = try await NFCTool.run(["ndef", "decode", "--message", file, "--json"])
            #expect(decoded.status == 0, "\(form): \(decoded.stderr)")
            #expect(try json(decoded.stdout)["length"] as? Int == bytes.count, "\(form)")
            let encoded = try await NFCTool.run(["ndef", "encode", "--message", file])
            #expect(
                encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == bytes.map { String(format: "%02x", $0) }.joined(),
                "\(form)")
            let dispatched = try await NFCTool.run(["dispatch", "--message", file])
            #expect(dispatched.stdout.contains("https://example.org"), "\(form): \(dispatched.stdout) \(dispatched.stderr)")
            let tag = try await image("ntag213")
            let write = try await NFCTool.run(["write", "--reader", "sim:" + tag, "--message", file])
            #expect(write.status == 0 && write.stderr.isEmpty, "\(form): \(write.stderr)")
            let read = try json(try await NFCTool.run(["read", "--reader", "sim:" + tag, "--json"]).stdout)
            #expect(read["length"] as? Int == bytes.count, "\(form)")
        }
        let fromStandardInput = try await NFCTool.run(
            ["ndef", "decode", "--message", "-", "--json"], stdin: try String(contentsOfFile: try #require(files["json"]), encoding: .utf8))
        #expect(try json(fromStandardInput.stdout)["length"] as? Int == bytes.count)
    }

    @Test func aBadMessageFileIsNamed() async throws {
        let empty = path("empty.ndef")
        try Data("\n".utf8).write(to: URL(fileURLWithPath: empty))
        let result = try await NFCTool.run(["ndef", "decode", "--message", empty])
        #expect(result.status == 2 && result.stderr.contains("\(empty) is empty"), "\(result.stderr)")
        let badJSON = path("bad.json")
        try Data(#"{"records": [{"tnf": "nonsense"}]}"#.utf8).write(to: URL(fileURLWithPath: badJSON))
        let refused = try await NFCTool.run(["write", "--reader", "sim:" + (try await image("ntag213")), "--message", badJSON])
        #expect(refused.status == 2 && refused.stderr.contains(badJSON), "\(refused.stderr)")
        let both = try await NFCTool.run(["write", "--uri", "https://a.example", "--message", badJSON])
        #expect(both.status != 0 && both.stderr.contains("alternatives"), "\(both.stderr)")
    }

    @Test func jsonIsOutputOnCommandsThatChangeATag() async throws {
        let tag = try await image("ntag213")
        let written = try await NFCTool.run(["write", "--reader", "sim:" + tag, "--uri", "https://example.org", "--json", "--stats"])
        #expect(written.status == 0, "\(written.stderr)")
        let object = try json(written.stdout)
        #expect(object["written"] as? Bool == true)
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.first?["uri"] as? String == "https://example.org")
        #expect((object["stats"] as? [String: Any])?["commands"] as? Int ?? 0 > 0, "--stats goes into the JSON")
        #expect(
            object["hex"] as? String
                == (try await NFCTool.run(["ndef", "encode", "--uri", "https://example.org"])).stdout.trimmingCharacters(
                    in: .whitespacesAndNewlines))

        let blank = path("blank.json")
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "--blank", "-o", blank]).status == 0)
        let formatted = try json(try await NFCTool.run(["format", "--reader", "sim:" + blank, "--json"]).stdout)
        #expect(formatted["formatted"] as? Bool == true && formatted["stats"] == nil)
        let locked = try json(try await NFCTool.run(["lock", "--reader", "sim:" + blank, "--json"]).stdout)
        #expect(locked["readOnly"] as? Bool == true)
        let again = try await NFCTool.run(["write", "--reader", "sim:" + blank, "--uri", "https://example.org", "--json"])
        #expect(again.status != 0)
        #expect((try json(again.stdout)["error"] as? [String: Any])?["code"] != nil, "a failure with --json is a JSON error object")

        let encoded = try json(try await NFCTool.run(["ndef", "encode", "--text", "hi", "--json"]).stdout)
        #expect(encoded["hex"] as? String == "d101055402656e6869" && (encoded["records"] as? [Any])?.count == 1)
    }

    @Test func outputFilesAreNeverReplacedWithoutForce() async throws {
        let output = path("out.bin")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try await NFCTool.run(["ndef", "encode", "--text", "hi", "-o", output])
        #expect(refused.status == 2 && refused.stderr.contains("\(output) exists; pass --force to replace it"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("keep".utf8))
        let forced = try await NFCTool.run(["ndef", "encode", "--text", "hi", "-o", output, "--force"])
        let replaced = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(forced.status == 0 && replaced.first == 0xD1)

        // Refused before the card is touched: the PIV key is not generated, the FIDO credential not made.
        let key = try await image("security-key")
        let before = try Data(contentsOf: URL(fileURLWithPath: key))
        let certificate = try await NFCTool.run(["piv", "generate", "9e", "--reader", "sim:" + key, "-o", output])
        #expect(certificate.status == 2 && certificate.stderr.contains("pass --force"), "\(certificate.stderr)")
        let signature = try await NFCTool.run(["piv", "sign", "9e", "--data-hex", "00", "--reader", "sim:" + key, "--output", output])
        #expect(signature.status == 2 && signature.stderr.contains("pass --force"), "\(signature.stderr)")
        let credential = try await NFCTool.run(["fido", "register", "--rp", "example.com", "--reader", "sim:" + key, "-o", output])
        #expect(credential.status == 2 && credential.stderr.contains("pass --force"), "\(credential.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before, "the card was never touched")
        let directory = try await NFCTool.run(["piv", "generate", "9e", "--reader", "sim:" + key, "-o", self.directory.path, "--force"])
        #expect(directory.status == 2 && directory.stderr.contains("is a directory"), "\(directory.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == before, "a directory is refused before the card too")
        let made = try await NFCTool.run(["fido", "register", "--rp", "example.com", "--reader", "sim:" + key, "-o", output, "--force"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self))["rp"] as? String == "example.com")
    }

    @Test func oldSpellingsWorkWithADeprecationLine() async throws {
        let (bytes, files) = try await messageFiles()
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let payload = path("payload.bin")
        try Data([1, 2]).write(to: URL(fileURLWithPath: payload))
        let signer = try await image("security-key")
        #expect(try await NFCTool.run(["piv", "generate", "9e", "--reader", "sim:" + signer]).status == 0)
        let cases: [(arguments: [String], old: String)] = [
            (["ndef", "encode", "--mime", "a/b", "--file", payload], "--file"),
            (["ndef", "encode", "--mime", "a/b", "--hex", "0102"], "--hex"),
            (["ndef", "encode", "--json", try #require(files["json"])], "--json FILE"),
            (["ndef", "decode", "--file", try #require(files["binary"])], "--file"),
            (["dispatch", "--file", try #require(files["binary"])], "--file"),
            (["write", "--reader", "sim:" + (try await image("ntag213")), "--json", try #require(files["json"])], "--json FILE"),
            (["write", "--reader", "sim:" + (try await image("ntag213")), "--hex", hex], "--hex MESSAGE"),
            (["piv", "sign", "9e", "--hex", "00", "--reader", "sim:" + signer], "--hex"),
            (["piv", "sign", "9e", "--file", payload, "--reader", "sim:" + signer], "--file"),
        ]
        for (arguments, old) in cases {
            let result = try await NFCTool.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("nfc: \(old) is deprecated and goes in the next release; use "), "\(arguments): \(result.stderr)")
        }
        let mime = try json(
            try await NFCTool.run([
                "ndef", "decode", "--json", (try await NFCTool.run(["ndef", "encode", "--mime", "a/b", "--hex", "0102"])).stdout,
            ]).stdout)
        #expect((mime["records"] as? [[String: Any]])?.first?["payload"] as? String == "0102", "the old --hex is still the payload")
        let oldWrite = try await image("ntag213")
        _ = try await NFCTool.run(["write", "--reader", "sim:" + oldWrite, "--json", try #require(files["json"])])
        #expect(try json(try await NFCTool.run(["read", "--reader", "sim:" + oldWrite, "--json"]).stdout)["length"] as? Int == bytes.count)
        let key = try await image("security-key")
        let certificate = path("old.pem")
        let generated = try await NFCTool.run(["piv", "generate", "9e", "--reader", "sim:" + key, "--certificate-out", certificate])
        #expect(generated.status == 0 && generated.stderr.contains("--certificate-out is deprecated"), "\(generated.stderr)")
        #expect(FileManager.default.fileExists(atPath: certificate))
        let keyFile = path("old-key.json")
        let registered = try await NFCTool.run(["fido", "register", "--rp", "example.com", "--reader", "sim:" + key, "--key-file", keyFile])
        #expect(registered.status == 0 && registered.stderr.contains("--key-file on register is deprecated"), "\(registered.stderr)")
        #expect(FileManager.default.fileExists(atPath: keyFile))
        let unexpected = try await NFCTool.run(["ndef", "encode", try #require(files["json"])])
        #expect(unexpected.status != 0 && unexpected.stderr.contains("--message FILE"), "\(unexpected.stderr)")
    }

    @Test(arguments: [
        ["write", "--help"], ["ndef", "encode", "--help"], ["ndef", "decode", "--help"], ["dispatch", "--help"],
        ["piv", "sign", "--help"], ["piv", "generate", "--help"], ["fido", "register", "--help"],
    ])
    func helpListsOnlyTheNewSpellings(_ arguments: [String]) async throws {
        let help = try await NFCTool.run(arguments).stdout
        for old in ["--file <", "--hex <", "--certificate-out", "--key-file <", "--json <"] {
            #expect(!help.contains(old), "\(arguments) lists \(old)")
        }
    }
}
