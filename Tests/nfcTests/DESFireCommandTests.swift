import Foundation
import NFCTestSupport
import Testing

/// `nfc desfire` on a virtual DESFire image: an application built, keyed, filled and taken apart
/// again, every option on the way; `nfc format` on a blank card.
@Suite struct DESFireCommandTests {
    static let zero = String(repeating: "00", count: 16)
    static let fileKey = "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"

    func image(_ kind: String, blank: Bool) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("desfire-\(UUID().uuidString).json").path
        let made = try await NFCTool.run(["tag", "new", kind, "-o", path] + (blank ? ["--blank"] : []))
        #expect(made.status == 0, "\(made.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the image holds AES keys")
        return path
    }

    func run(_ arguments: [String], stdin: String? = nil) async throws -> NFCTool.Result {
        let result = try await NFCTool.run(arguments, stdin: stdin)
        #expect(result.status == 0, "\(arguments.prefix(2).joined(separator: " ")): \(result.stderr)")
        return result
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func applicationBuiltUsedAndRemoved() async throws {
        let path = try await image("desfire-ev2", blank: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        let app = ["--aid", "F12345"]
        let master = ["--key", Self.zero, "--key-number", "0"]
        let keyed = ["--key", Self.fileKey, "--key-number", "1"]
        _ = try await run(
            ["desfire", "create-app"] + sim + app
                + ["--keys", "3", "--settings", "0B", "--iso-id", "1234", "--df-name", "A0000001020304", "--key", "-"],
            stdin: Self.zero + "\n")
        _ = try await run(
            ["desfire", "change-key"] + sim + app + master
                + ["--change", "1", "--new-key", "-", "--old-key", Self.zero, "--new-version", "2"], stdin: Self.fileKey + "\n")
        let withoutKey = try await NFCTool.run(
            ["desfire", "create-file"] + sim + app + ["--file", "9", "--type", "standard", "--size", "8"])
        #expect(
            withoutKey.status == 4 && withoutKey.stderr.contains("--key"),
            "settings 0B keep creation to the master key: \(withoutKey.stderr)")
        _ = try await run(
            ["desfire", "create-file"] + sim + app + master
                + [
                    "--file", "1", "--type", "standard", "--size", "64", "--mode", "full", "--read", "1", "--write", "1",
                    "--read-write", "1", "--change", "0", "--iso-id", "1001",
                ])
        _ = try await run(["desfire", "create-file"] + sim + app + master + ["--file", "2", "--type", "backup", "--size", "16"])
        _ = try await run(
            ["desfire", "create-file"] + sim + app + master
                + [
                    "--file", "3", "--type", "value", "--lower", "0", "--upper", "1000", "--value", "100", "--limited-credit", "--mode",
                    "mac",
                    "--read", "1", "--write", "1", "--read-write", "1",
                ])
        _ = try await run(
            ["desfire", "create-file"] + sim + app + master + [
                "--file", "4", "--type", "cyclic-record", "--record-size", "4", "--records", "3",
            ])
        _ = try await run(
            ["desfire", "create-file"] + sim + app + master + [
                "--file", "5", "--type", "linear-record", "--record-size", "2", "--records", "2",
            ])

        _ = try await run(["desfire", "write"] + sim + app + keyed + ["--file", "1", "--hex", "C0FFEE", "--offset", "4"])
        let refused = try await NFCTool.run(["desfire", "read"] + sim + app + ["--file", "1"])
        #expect(refused.status == 4 && refused.stderr.contains("authentication error"), "\(refused.stderr)")
        let read = try Self.object(
            try await run(["desfire", "read"] + sim + app + keyed + ["--file", "1", "--offset", "4", "--length", "3", "--json"]).stdout)
        #expect(read["data"] as? String == "c0ffee" && read["type"] as? String == "standard")

        _ = try await run(["desfire", "write"] + sim + app + ["--file", "2", "--hex", "AABB", "--no-commit"])
        #expect(try await run(["desfire", "read"] + sim + app + ["--file", "2", "--length", "2"]).stdout == "0000\n", "not committed")
        _ = try await run(["desfire", "write"] + sim + app + ["--file", "2", "--hex", "AABB"])
        #expect(try await run(["desfire", "read"] + sim + app + ["--file", "2", "--length", "2"]).stdout == "AABB\n")

        for (option, amount, expected) in [("--credit", "50", 150), ("--debit", "30", 120), ("--limited-credit", "30", 150)] {
            let value = try Self.object(
                try await run(["desfire", "value"] + sim + app + keyed + ["--file", "3", option, amount, "--json"]).stdout)
            #expect(value["value"] as? Int == expected, "\(option) \(amount)")
        }
        for record in ["01020304", "05060708", "090A0B0C"] {
            _ = try await run(["desfire", "write"] + sim + app + ["--file", "4", "--hex", record])
        }
        let records = try Self.object(try await run(["desfire", "read"] + sim + app + ["--file", "4", "--json"]).stdout)
        #expect(records["records"] as? [String] == ["05060708", "090a0b0c"], "a cyclic file of 3 keeps 2")

        let files = try await run(["desfire", "files"] + sim + app + master + ["--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(files.stdout.utf8)) as? [[String: Any]])
        #expect(list.map { $0["type"] as? String } == ["standard", "backup", "value", "cyclic-record", "linear-record"])
        #expect(list[2]["limitedCreditValue"] as? Int == 0 && list[0]["read"] as? Int == 1 && list[0]["mode"] as? String == "full")
        _ = try await run(["desfire", "delete-file"] + sim + app + master + ["--file", "5"])
        let text = try await run(["desfire", "files"] + sim + app)
        #expect(text.stdout.contains("file 3: value, 0...1000, limited credit on") && !text.stdout.contains("file 5"), "\(text.stdout)")

        let info = try Self.object(try await run(["desfire", "info"] + sim + ["--key", Self.zero, "--json"]).stdout)
        #expect(info["generation"] as? String == "DESFire EV2" && info["uidAuthenticated"] as? Bool == true)
        #expect(info["applications"] as? [String] == ["F12345"])
        let originality = try #require(info["originality"] as? [String: Any], "an EV2 is asked for its originality signature")
        #expect(originality["valid"] as? Bool == true && originality["testKey"] as? Bool == true)
        let apps = try await run(["desfire", "apps"] + sim + ["--key", Self.zero, "--json"])
        let appList = try #require(try JSONSerialization.jsonObject(with: Data(apps.stdout.utf8)) as? [[String: Any]])
        #expect(appList.first?["keys"] as? Int == 3 && appList.first?["files"] as? [Int] == [1, 2, 3, 4])
        _ = try await run(["desfire", "delete-app"] + sim + ["--aid", "F12345", "--key", Self.zero])
        _ = try await run(["desfire", "create-app"] + sim + ["--aid", "000002"])
        let formatted = try await run(["desfire", "format-picc"] + sim + ["--key", "-"], stdin: Self.zero + "\n")
        #expect(formatted.stdout.contains("7936 bytes free"))
    }

    /// `set-config`: the random ID shows at the next tap (`nfc scan`), the real UID only with the
    /// key; FormatPICC refused afterwards; without --yes and no terminal, nothing happens.
    @Test func setConfigTurnsOnTheRandomIDAndDisablesFormat() async throws {
        let path = try await image("desfire-ev1", blank: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        let key = String(repeating: "0", count: 16)
        let unconfirmed = try await NFCTool.run(["desfire", "set-config", "--random-id"] + sim + ["--key", key])
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        let nothing = try await NFCTool.run(["desfire", "set-config", "--yes"] + sim + ["--key", key])
        #expect(nothing.status == 64)
        let set = try await run(["desfire", "set-config", "--random-id", "--disable-format", "--yes"] + sim + ["--key", key, "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any])
        #expect(
            answer["randomID"] as? Bool == true && answer["formatDisabled"] as? Bool == true && answer["uid"] as? String == "04444553464980"
        )
        let scan = try await run(["scan", "--json"] + sim)
        let scanned = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        let uid = try #require(scanned["uid"] as? String)
        #expect(uid.count == 8 && uid.hasPrefix("08"), "a 4-byte random ID: \(uid)")
        let hidden = try await run(["desfire", "info"] + sim).stdout
        #expect(hidden.contains("UID: hidden") && !hidden.contains("originality"), "an EV1 has no signature: \(hidden)")
        #expect(try await run(["desfire", "info"] + sim + ["--key", key]).stdout.contains("UID: 04444553464980 (GetCardUID)"))
        let format = try await NFCTool.run(["desfire", "format-picc"] + sim + ["--key", key])
        #expect(format.status == 4 && format.stderr.contains("9D"), "\(format.stderr)")
    }

    /// `set-config --default-key --default-key-version --ats`: no confirmation (neither is
    /// permanent); a new application's keys are the default key, the next tap's ATS the one set;
    /// a malformed ATS is a usage error before the card is touched.
    @Test func setConfigSetsTheDefaultKeyAndTheATS() async throws {
        let path = try await image("desfire-ev1", blank: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        let zero = String(repeating: "0", count: 16)
        let defaultKey = "00112233445566778899AABBCCDDEEFF"
        let bad = try await NFCTool.run(["desfire", "set-config", "--ats", "0575"] + sim + ["--key", zero])
        #expect(bad.status == 64 && bad.stderr.contains("TL"), "\(bad.stderr)")
        let versionAlone = try await NFCTool.run(["desfire", "set-config", "--default-key-version", "3"] + sim + ["--key", zero])
        #expect(versionAlone.status == 64)
        let set = try await run(
            ["desfire", "set-config", "--default-key", "-", "--default-key-version", "3", "--ats", "0778778102C1DE", "--json"] + sim
                + ["--key", "-"], stdin: zero + "\n" + defaultKey + "\n")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(set.stdout.utf8)) as? [String: Any])
        #expect(
            answer["defaultKeySet"] as? Bool == true && answer["ats"] as? String == "0778778102C1DE" && answer["randomID"] as? Bool == false
        )
        _ = try await run(["desfire", "create-app", "--aid", "D1F1F1", "--keys", "2", "--key-type", "aes"] + sim + ["--key", zero])
        let files = try await NFCTool.run(
            ["desfire", "files", "--aid", "D1F1F1", "--json"] + sim + ["--key", defaultKey, "--key-number", "1"])
        #expect(files.status == 0, "key 1 of the new application is the default key: \(files.stderr)")
        let zeros = try await NFCTool.run(["desfire", "files", "--aid", "D1F1F1"] + sim + ["--key", zero + zero, "--key-number", "1"])
        #expect(zeros.status != 0, "zeros are not its key")
        let scan = try await run(["scan", "--json"] + sim)
        #expect(scan.stdout.contains("78778102C1DE") || scan.stdout.contains("78778102c1de"), "the ATS set: \(scan.stdout)")
    }

    /// `nfc format` makes a blank DESFire an NFC Forum Type 4 Tag; then read and write as any tag.
    @Test(arguments: ["desfire-ev1", "desfire-ev3"])
    func formatABlankCardForNDEF(kind: String) async throws {
        let path = try await image(kind, blank: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        let unformatted = try await NFCTool.run(["read"] + sim)
        #expect(unformatted.status != 0)
        _ = try await run(["format"] + sim)
        _ = try await run(["write"] + sim + ["--text", "on a DESFire"])
        #expect(try await run(["read"] + sim).stdout.contains("on a DESFire"))
        let again = try await NFCTool.run(["format"] + sim)
        #expect(again.status != 0, "formatted already")
        _ = try await run(["format", "--wipe"] + sim)
        #expect(try await run(["read"] + sim).stdout.contains("empty tag"), "the wipe emptied the message")
    }

    /// Bad arguments are usage errors before the card is touched.
    @Test func usageErrors() async throws {
        let path = try await image("desfire-ev3", blank: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        for arguments in [
            ["desfire", "read", "--aid", "XYZ", "--file", "1"], ["desfire", "read", "--file", "1"],
            ["desfire", "read", "--aid", "000001", "--file", "40"],
            ["desfire", "value", "--aid", "000001", "--file", "1", "--credit", "1", "--debit", "1"],
            ["desfire", "create-file", "--aid", "000001", "--file", "3", "--type", "standard"],
            ["desfire", "create-file", "--aid", "000001", "--file", "3", "--type", "value", "--read", "99"],
            ["desfire", "create-app", "--aid", "000000"], ["desfire", "files", "--aid", "000001", "--key-number", "2"],
            ["desfire", "create-file", "--aid", "000001", "--file", "3", "--type", "standard", "--size", "4", "--lower", "1"],
            ["desfire", "create-file", "--aid", "000001", "--file", "3", "--type", "value", "--iso-id", "E105"],
            [
                "desfire", "create-file", "--aid", "000001", "--file", "3", "--type", "linear-record", "--record-size", "4", "--records",
                "2",
                "--size", "8",
            ],
            ["desfire", "write", "--aid", "000001", "--file", "2", "--hex", "00", "--no-commit"],
            ["desfire", "change-key", "--aid", "000001", "--key", "-", "--change", "0", "--new-key", "-"],
        ] {
            let result = try await NFCTool.run(arguments + sim)
            #expect(result.status == 64, "\(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
        }
        let missing = try await NFCTool.run(["desfire", "files", "--aid", "999999"] + sim)
        #expect(missing.status == 3 && missing.stderr.contains("nfc desfire apps"), "a missing application: \(missing.stderr)")
    }
}
