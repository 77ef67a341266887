import Foundation
import Testing

/// `nfc fido info|register|assert|set-pin` against a simulated security key, as a user runs them.
@Suite(.serialized) struct FIDOCommandTests {
    private func securityKey(_ kind: String = "security-key") async throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-fido-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("key.json").path
        let created = try await NFCTool.run(["tag", "new", kind, "-o", path])
        #expect(created.status == 0, "\(created.stderr)")
        return (directory, "sim:" + path)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func infoText() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = try await NFCTool.run(["fido", "info", "--reader", reader])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("versions:      U2F_V2, FIDO_2_0, FIDO_2_1"))
        #expect(info.stdout.contains("algorithms:    ES256 (-7)"))
        let u2f = try json(try await NFCTool.run(["fido", "info", "--reader", reader, "--u2f", "--json"]).stdout)
        #expect(u2f["u2fVersion"] as? String == "U2F_V2")
    }

    @Test("register writes a key file; assert verifies with it, the counter rises across runs; a wrong key fails")
    func registerThenAssert() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("cred.json").path
        let register = try await NFCTool.run([
            "fido", "register", "--reader", reader, "--rp", "example.com", "--user", "alice", "-o", keyFile, "--json",
        ])
        #expect(register.status == 0, "\(register.stderr)")
        let registered = try json(register.stdout)
        #expect(registered["attestation"] as? String == "packed")
        #expect(registered["flags"] as? [String] == ["UP", "AT"])
        let publicKey = try #require(registered["publicKey"] as? String)
        #expect(publicKey.count == 130 && publicKey.hasPrefix("04"))
        let file = try json(String(decoding: try Data(contentsOf: URL(fileURLWithPath: keyFile)), as: UTF8.self))
        #expect(file["credentialId"] as? String == registered["credentialId"] as? String)

        var counters: [Int] = []
        for _ in 0..<2 {
            let assert = try await NFCTool.run(["fido", "assert", "--reader", reader, "--key-file", keyFile, "--json"])
            #expect(assert.status == 0, "\(assert.stderr)")
            let asserted = try json(assert.stdout)
            #expect(asserted["signatureVerified"] as? Bool == true)
            #expect(asserted["credentialId"] as? String == registered["credentialId"] as? String)
            counters.append(try #require(asserted["signatureCounter"] as? Int))
        }
        #expect(counters == [2, 3])

        // Another credential's public key does not verify this one's signature.
        let other = try json(try await NFCTool.run(["fido", "register", "--reader", reader, "--rp", "example.com", "--json"]).stdout)
        let wrong = try await NFCTool.run([
            "fido", "assert", "--reader", reader, "--rp", "example.com",
            "--credential", try #require(registered["credentialId"] as? String),
            "--public-key", try #require(other["publicKey"] as? String),
        ])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("verification failed: assertion signature"))
        // The credential is scoped to its RP.
        let elsewhere = try await NFCTool.run(["fido", "assert", "--reader", reader, "--key-file", keyFile, "--rp", "evil.example"])
        #expect(elsewhere.status != 0)
        #expect(elsewhere.stderr.contains("CTAP2_ERR_NO_CREDENTIALS"))
    }

    @Test("resident credential: assert without a credential ID finds it and names the user handle")
    func residentAssertion() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let registered = try json(
            try await NFCTool.run(["fido", "register", "--reader", reader, "--rp", "rk.example", "--user", "bob", "--resident", "--json"])
                .stdout)
        #expect(registered["resident"] as? Bool == true)
        let assert = try await NFCTool.run([
            "fido", "assert", "--reader", reader, "--rp", "rk.example", "--public-key", try #require(registered["publicKey"] as? String),
            "--json",
        ])
        #expect(assert.status == 0, "\(assert.stderr)")
        let asserted = try json(assert.stdout)
        #expect(asserted["credentialId"] as? String == registered["credentialId"] as? String)
        #expect((asserted["user"] as? [String: Any])?["id"] != nil)
    }

    @Test("set-pin, then register needs --pin; a wrong PIN spends a retry; PINs never appear in output")
    func pin() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let set = try await NFCTool.run(["fido", "set-pin", "--reader", reader, "--new", "8642"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("PIN retries 8"))
        let withoutPIN = try await NFCTool.run(["fido", "register", "--reader", reader, "--rp", "pin.example"])
        #expect(withoutPIN.status != 0)
        #expect(withoutPIN.stderr.contains("CTAP2_ERR_PUAT_REQUIRED"))
        let wrong = try await NFCTool.run(["fido", "register", "--reader", reader, "--rp", "pin.example", "--pin", "1111"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("CTAP2_ERR_PIN_INVALID"))
        #expect(!wrong.stderr.contains("1111"))
        let info = try json(try await NFCTool.run(["fido", "info", "--reader", reader, "--json"]).stdout)
        #expect(info["pinRetries"] as? Int == 7)
        #expect((info["options"] as? [String: Any])?["clientPin"] as? Bool == true)

        let keyFile = directory.appendingPathComponent("cred.json").path
        let register = try await NFCTool.run([
            "fido", "register", "--reader", reader, "--rp", "pin.example", "--pin", "8642", "-o", keyFile, "--json",
        ])
        #expect(register.status == 0, "\(register.stderr)")
        #expect(try json(register.stdout)["flags"] as? [String] == ["UP", "UV", "AT"])
        #expect(!register.stdout.contains("8642"))
        let assert = try await NFCTool.run(["fido", "assert", "--reader", reader, "--key-file", keyFile, "--pin", "8642", "--json"])
        #expect(try json(assert.stdout)["flags"] as? [String] == ["UP", "UV"])
        let change = try await NFCTool.run(["fido", "set-pin", "--reader", reader, "--pin", "8642", "--new", "97531"])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(try await NFCTool.run(["fido", "assert", "--reader", reader, "--key-file", keyFile, "--pin", "97531"]).status == 0)
    }

    @Test func u2fRegisterThenAssert() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("u2f.json").path
        let register = try await NFCTool.run([
            "fido", "register", "--reader", reader, "--rp", "u2f.example", "--u2f", "-o", keyFile,
        ])
        #expect(register.status == 0, "\(register.stderr)")
        #expect(register.stdout.contains("attestation:   fido-u2f, verified"))
        let assert = try await NFCTool.run(["fido", "assert", "--reader", reader, "--key-file", keyFile, "--json"])
        #expect(assert.status == 0, "\(assert.stderr)")
        let asserted = try json(assert.stdout)
        #expect(asserted["protocol"] as? String == "u2f" && asserted["signatureCounter"] as? Int == 1)
    }

    @Test("one-line reasons: not an ISO 7816 tag, no FIDO applet, missing options")
    func failures() async throws {
        let (d1, storage) = try await securityKey("ntag216")
        defer { try? FileManager.default.removeItem(at: d1) }
        let notISO = try await NFCTool.run(["fido", "info", "--reader", storage])
        #expect(notISO.status != 0 && notISO.stderr.contains("not an ISO 7816 tag"))
        let (d2, type4) = try await securityKey("type4")
        defer { try? FileManager.default.removeItem(at: d2) }
        let noApplet = try await NFCTool.run(["fido", "info", "--reader", type4])
        #expect(noApplet.status != 0 && noApplet.stderr.contains("not a FIDO authenticator: SELECT answered SW 6A82"))
        #expect(noApplet.stderr.split(separator: "\n").count == 1)
        let noKey = try await NFCTool.run(["fido", "assert", "--reader", type4, "--rp", "x"])
        #expect(noKey.status != 0 && noKey.stderr.contains("--public-key or --key-file"))
    }
}
