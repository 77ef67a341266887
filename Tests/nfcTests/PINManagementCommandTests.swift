import Foundation
import Testing

/// PIN and key management on a simulated security key: PIV change/unblock/reset, FIDO PIN and
/// reset; every wrong PIN says how many tries are left; secrets from standard input, not argv.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PINManagementCommandTests {
    private func securityKey() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString).json").path
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", path]).status == 0)
        return "sim:" + path
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    @Test func pivPINAndPUKLifecycle() async throws {
        let key = try await securityKey()
        let wrong = try await NFCTool.run(["piv", "change-pin", "--reader", key, "--pin", "000000", "--new", "654321"])
        #expect(wrong.status != 0 && wrong.stderr.contains("wrong PIN, 2 tries left"), "\(wrong.stderr)")

        let changed = try await NFCTool.run(["piv", "change-pin", "--reader", key, "--pin", "-", "--new", "-"], stdin: "123456\n654321\n")
        #expect(changed.status == 0 && changed.stdout.contains("PIN changed"), "\(changed.stderr)")
        #expect(try await NFCTool.run(["piv", "generate", "9a", "--reader", key, "--pin", "-"], stdin: "654321\n").status == 0)

        for left in [2, 1] {
            let miss = try await NFCTool.run(["piv", "sign", "9a", "--reader", key, "--pin", "999999", "--data-hex", "00"])
            #expect(miss.stderr.contains("wrong PIN, \(left) \(left == 1 ? "try" : "tries") left"), "\(miss.stderr)")
        }
        let blocked = try await NFCTool.run(["piv", "sign", "9a", "--reader", key, "--pin", "999999", "--data-hex", "00"])
        #expect(blocked.stderr.contains("the PIN is blocked"), "\(blocked.stderr)")

        let unblocked = try await NFCTool.run(["piv", "unblock-pin", "--reader", key, "--puk", "12345678", "--new", "111111", "--json"])
        let unblockedJSON = try json(unblocked.stdout)
        #expect(unblocked.status == 0 && unblockedJSON["unblocked"] as? String == "PIN", "\(unblocked.stderr)")
        #expect(try await NFCTool.run(["piv", "sign", "9a", "--reader", key, "--pin", "111111", "--data-hex", "00"]).status == 0)

        let puk = try await NFCTool.run(["piv", "change-puk", "--reader", key, "--puk", "12345678", "--new", "87654321"])
        #expect(puk.status == 0, "\(puk.stderr)")
        let oldPUK = try await NFCTool.run(["piv", "unblock-pin", "--reader", key, "--puk", "12345678", "--new", "222222"])
        #expect(oldPUK.stderr.contains("wrong PUK, 2 tries left"), "\(oldPUK.stderr)")
    }

    @Test func pivResetNeedsConfirmationAndRestoresTheDefaults() async throws {
        let key = try await securityKey()
        #expect(try await NFCTool.run(["piv", "generate", "9e", "--reader", key]).status == 0)
        #expect(try await NFCTool.run(["piv", "change-pin", "--reader", key, "--pin", "123456", "--new", "777777"]).status == 0)
        let unconfirmed = try await NFCTool.run(["piv", "reset", "--reader", key])
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("give --yes"), "\(unconfirmed.stderr)")
        let reset = try await NFCTool.run(["piv", "reset", "--reader", key, "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let status = try json(try await NFCTool.run(["piv", "status", "--reader", key, "--json"]).stdout)
        #expect((status["pin"] as? [String: Any])?["retries"] as? Int == 3)
        #expect(
            try await NFCTool.run(["piv", "change-pin", "--reader", key, "--pin", "123456", "--new", "777777"]).status == 0,
            "the default PIN works again")
        let signed = try await NFCTool.run(["piv", "sign", "9e", "--reader", key, "--data-hex", "00"])
        #expect(signed.status != 0, "the 9e key is gone")
    }

    @Test func fidoPINTriesAndReset() async throws {
        let key = try await securityKey()
        let set = try await NFCTool.run(["fido", "set-pin", "--reader", key, "--new", "-"], stdin: "2468\n")
        #expect(set.status == 0, "\(set.stderr)")
        let wrong = try await NFCTool.run(["fido", "register", "--reader", key, "--rp", "example.com", "--pin", "1357"])
        #expect(wrong.status == 4 && wrong.stderr.contains("wrong PIN, 7 tries left"), "\(wrong.stderr)")
        let right = try await NFCTool.run(["fido", "register", "--reader", key, "--rp", "example.com", "--pin", "-"], stdin: "2468\n")
        #expect(right.status == 0, "\(right.stderr)")
        let changed = try await NFCTool.run(["fido", "set-pin", "--reader", key, "--pin", "-", "--new", "-"], stdin: "2468\n8642\n")
        #expect(changed.status == 0 && changed.stdout.contains("PIN changed"), "\(changed.stderr)")
        let missing = try await NFCTool.run(["fido", "set-pin", "--reader", key], stdin: "")
        #expect(missing.status == 64 && missing.stderr.contains("give --new"), "\(missing.stderr)")

        #expect(try await NFCTool.run(["fido", "reset", "--reader", key]).status == 64, "no --yes, no terminal: refused")
        let reset = try await NFCTool.run(["fido", "reset", "--reader", key, "--yes", "--json"])
        let resetJSON = try json(reset.stdout)
        #expect(reset.status == 0 && resetJSON["reset"] as? Bool == true, "\(reset.stderr)")
        let info = try await NFCTool.run(["fido", "info", "--reader", key, "--json"])
        #expect(info.stdout.contains(#""clientPin": false"#), "no PIN after the reset: \(info.stdout)")
    }
}
