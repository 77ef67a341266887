import Foundation
import Testing

/// `nfc oath …` on a simulated security key, run as a user would.
@Suite(.serialized) struct OATHCommandTests {
    /// Base32 of "12345678901234567890", the RFC 4226 / RFC 6238 SHA-1 seed.
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    private func securityKey() async throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-oath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("key.json").path
        let created = try await NFCTool.run(["tag", "new", "security-key", "-o", path])
        #expect(created.status == 0, "\(created.stderr)")
        return (directory, "sim:" + path)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func addListCodeDelete() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let add = try await NFCTool.run(["oath", "add", "Example:alice", "--secret", Self.seed, "--digits", "8", "--reader", reader])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout == "added Example:alice (totp, sha1, 8 digits, 30s)\n")
        let hotp = try await NFCTool.run([
            "oath", "add", "bob", "--issuer", "Ex", "--hotp", "--secret", Self.seed.lowercased(), "--reader", reader, "--json",
        ])
        #expect(hotp.status == 0, "\(hotp.stderr)")
        let added = try #require(try json(hotp.stdout)["added"] as? [String: Any])
        #expect(added["name"] as? String == "Ex:bob" && added["type"] as? String == "hotp" && added["issuer"] as? String == "Ex")

        let list = try await NFCTool.run(["oath", "list", "--reader", reader, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let credentials = try #require(try json(list.stdout)["credentials"] as? [[String: Any]])
        #expect(credentials.map { $0["name"] as? String } == ["Example:alice", "Ex:bob"])
        #expect(credentials.first?["period"] as? Int == 30 && credentials.first?["algorithm"] as? String == "sha1")

        // RFC 6238 Appendix B (SHA-1, 8 digits) at T = 1111111109; the HOTP row has no code.
        let all = try await NFCTool.run(["oath", "code", "--time", "1111111109", "--reader", reader, "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        let parsed = try json(all.stdout)
        #expect(parsed["time"] as? Int == 1_111_111_109)
        let codes = try #require(parsed["codes"] as? [[String: Any]])
        #expect(codes.first?["code"] as? String == "07081804")
        #expect(codes.first?["validFrom"] as? Int == 1_111_111_080 && codes.first?["validTo"] as? Int == 1_111_111_110)
        #expect(codes.last?["code"] is NSNull)

        // HOTP by name advances the counter across runs (the image is saved): RFC 4226 Appendix D.
        #expect(try await NFCTool.run(["oath", "code", "bob", "--reader", reader]).stdout == "Ex:bob  755224\n")
        #expect(try await NFCTool.run(["oath", "code", "Ex:bob", "--reader", reader]).stdout == "Ex:bob  287082\n")

        let missing = try await NFCTool.run(["oath", "code", "nobody", "--reader", reader])
        #expect(missing.status != 0 && missing.stderr.contains("no OATH credential named nobody"))

        let delete = try await NFCTool.run(["oath", "delete", "alice", "--reader", reader])
        #expect(delete.status == 0 && delete.stdout == "deleted Example:alice\n", "\(delete.stderr)")
        #expect(try await NFCTool.run(["oath", "list", "--reader", reader]).stdout == "Ex:bob  hotp sha1\n")
    }

    @Test func periodsAlgorithmsAndTouch() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Base32 of the 32-byte SHA-256 seed of RFC 6238.
        let seed256 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA"
        #expect(
            try await NFCTool.run(["oath", "add", "s", "--secret", seed256, "--algorithm", "sha256", "--digits", "8", "--reader", reader])
                .status == 0)
        #expect(
            try await NFCTool.run(["oath", "add", "slow", "--secret", Self.seed, "--period", "60", "--touch", "--reader", reader]).status
                == 0)
        let code = try await NFCTool.run(["oath", "code", "--time", "59", "--reader", reader])
        #expect(code.status == 0, "\(code.stderr)")
        // sha256 at 59: 46119246 (RFC 6238); the 60 s touch credential at step 0: 755224.
        #expect(code.stdout == "s  46119246\nslow  755224\n")
        #expect(try await NFCTool.run(["oath", "list", "--reader", reader]).stdout.contains("slow  totp sha1 60s"))
    }

    @Test func accessCode() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await NFCTool.run(["oath", "add", "a", "--secret", Self.seed, "--reader", reader]).status == 0)
        let set = try await NFCTool.run(["oath", "password", "--new", "s3cret", "--reader", reader])
        #expect(set.status == 0 && set.stdout == "access code set\n", "\(set.stderr)")
        let locked = try await NFCTool.run(["oath", "list", "--reader", reader])
        #expect(locked.status != 0 && locked.stderr.contains("--password"))
        let wrong = try await NFCTool.run(["oath", "list", "--reader", reader, "--password", "nope"])
        #expect(wrong.status != 0 && wrong.stderr.contains("wrong password"))
        #expect(!wrong.stderr.contains("nope"))
        let unlocked = try await NFCTool.run(["oath", "code", "a", "--time", "59", "--reader", reader, "--password", "s3cret"])
        #expect(unlocked.status == 0 && unlocked.stdout == "a  287082\n", "\(unlocked.stderr)")
        // The image holds the key, not the password.
        let image = try String(contentsOfFile: String(reader.dropFirst(4)), encoding: .utf8)
        #expect(image.contains("\"accessKey\"") && !image.contains("s3cret"))
        // Secrets from standard input, one line each, the current code before the new one.
        let fromStdin = try await NFCTool.run(["oath", "list", "--reader", reader, "--password", "-"], stdin: "s3cret\n")
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        let changed = try await NFCTool.run(
            ["oath", "password", "--reader", reader, "--password", "-", "--new", "-"], stdin: "s3cret\nn3xt\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try await NFCTool.run(["oath", "list", "--reader", reader, "--password", "n3xt"]).status == 0)
        let short = try await NFCTool.run(["oath", "list", "--reader", reader, "--password", "-"], stdin: "")
        #expect(short.status == 64 && short.stderr.contains("no line left"), "\(short.stderr)")
        #expect(try await NFCTool.run(["oath", "password", "--clear", "--reader", reader, "--password", "n3xt"]).status == 0)
        #expect(try await NFCTool.run(["oath", "list", "--reader", reader]).status == 0)
        // RESET needs no password.
        #expect(try await NFCTool.run(["oath", "password", "--new", "x", "--reader", reader]).status == 0)
        #expect(try await NFCTool.run(["oath", "reset", "--reader", reader]).status == 0)
        #expect(try await NFCTool.run(["oath", "list", "--reader", reader]).stdout == "no OATH credentials\n")
    }

    @Test func refusals() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let badSecret = try await NFCTool.run(["oath", "add", "a", "--secret", "not base32!", "--reader", reader])
        #expect(badSecret.status != 0 && badSecret.stderr.contains("Base32"))
        #expect(try await NFCTool.run(["oath", "add", "a", "--secret", Self.seed, "--digits", "9", "--reader", reader]).status != 0)
        #expect(try await NFCTool.run(["oath", "add", "a", "--secret", Self.seed, "--totp", "--hotp", "--reader", reader]).status != 0)
        let tooLong = try await NFCTool.run(["oath", "add", String(repeating: "n", count: 70), "--secret", Self.seed, "--reader", reader])
        #expect(tooLong.status != 0 && tooLong.stderr.contains("name"))
        // A tag without the applet.
        let other = directory.appendingPathComponent("t4.json").path
        #expect(try await NFCTool.run(["tag", "new", "type4", "-o", other]).status == 0)
        let none = try await NFCTool.run(["oath", "list", "--reader", "sim:" + other])
        #expect(none.status != 0 && none.stderr.contains("no OATH application"), "\(none.stderr)")
    }
}
