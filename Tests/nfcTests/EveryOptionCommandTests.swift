import Foundation
import Testing

/// Every option every command shares — `--trace`, `--stats`, `--verbose`, `--remove-after` (the
/// reader options), `--password`/`--password-file`/`--pack` (Type 2 passwords) and `--json` — run
/// on every command that has it, each with its effect checked; and the few options no other test
/// passes. `scripts/check-cli-coverage` proves from the runs themselves that no option is missed.
@Suite(.serialized, .timeLimit(.minutes(5))) struct EveryOptionCommandTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-every-option-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The tag images the commands start from, each made when first asked for: each run gets a
    /// fresh copy. (Under the thread sanitizer every run of the tool takes a second or more, so
    /// the tests make only what they use.)
    private final class Templates: @unchecked Sendable {
        let owner: EveryOptionCommandTests
        private var made: [String: String] = [:]
        init(_ owner: EveryOptionCommandTests) { self.owner = owner }

        private func image(
            _ name: String, _ kind: String, blank: Bool = false, _ prepare: (String) async throws -> Void = { _ in }
        ) async throws -> String {
            if let file = made[name] { return file }
            let file = owner.path(name + ".json")
            let created = try await NFCTool.run(["tag", "new", kind, "-o", file] + (blank ? ["--blank"] : []))
            #expect(created.status == 0, "\(created.stderr)")
            try await prepare(file)
            made[name] = file
            return file
        }

        var ntag: String {
            get async throws {
                try await image("ntag", "ntag213") { file in
                    let prepared = try await NFCTool.run(["write", "--reader", "sim:" + file, "--text", "template"])
                    #expect(prepared.status == 0, "\(prepared.stderr)")
                }
            }
        }
        var copy: String {
            get async throws {
                let file = owner.path("copy.json")
                if !FileManager.default.fileExists(atPath: file) {
                    let prepared = try await NFCTool.run(["dump", "--reader", "sim:" + (try await ntag), "-o", file])
                    #expect(prepared.status == 0, "\(prepared.stderr)")
                }
                return file
            }
        }
        var protectedNTAG: String {
            get async throws {
                try await image("protected", "ntag213") { file in
                    let prepared = try await NFCTool.run(["write", "--reader", "sim:" + file, "--text", "protected"])
                    #expect(prepared.status == 0, "\(prepared.stderr)")
                    let protect = try await NFCTool.run(
                        ["protect", "--reader", "sim:" + file, "--password", "01020304", "--pack", "abcd", "--read"])
                    #expect(protect.status == 0, "\(protect.stderr)")
                }
            }
        }
        var key: String { get async throws { try await image("key", "security-key") } }
        var ntag424: String { get async throws { try await image("ntag424", "ntag424") } }
        /// A DESFire EV3 formatted for NDEF (application 000001, files 1 and 2).
        var desfire: String { get async throws { try await image("desfire", "desfire-ev3") } }
        /// The ICAO specimen passport.
        var passport: String { get async throws { try await image("passport", "passport") } }
        /// A MIFARE Plus at SL3, every key FF.
        var mifarePlus: String { get async throws { try await image("mifare-plus", "mifare-plus") } }
        /// A MIFARE Plus at SL0 with the card keys CommitPerso needs already written.
        var mifarePlusPersonalized: String {
            get async throws {
                try await image("mifare-plus-sl0", "mifare-plus", blank: true) { file in
                    for address in ["9000", "9001", "9003"] {
                        let written = try await NFCTool.run(
                            [
                                "mifare-plus", "perso", "--reader", "sim:" + file, "--address", address, "--hex",
                                String(repeating: "AB", count: 16),
                            ])
                        #expect(written.status == 0, "\(written.stderr)")
                    }
                }
            }
        }
        var keyWithCredential: String {
            get async throws {
                try await image("key-oath", "security-key") { file in
                    let prepared = try await NFCTool.run(["oath", "add", "a", "--secret", "JBSWY3DPEHPK3PXP", "--reader", "sim:" + file])
                    #expect(prepared.status == 0, "\(prepared.stderr)")
                }
            }
        }
        var keyWithPIVKey: String {
            get async throws {
                try await image("key-piv", "security-key") { file in
                    let prepared = try await NFCTool.run(["piv", "generate", "9a", "--pin", "123456", "--reader", "sim:" + file])
                    #expect(prepared.status == 0, "\(prepared.stderr)")
                }
            }
        }
        var fidoKeyFile: String { owner.path("fido-credential.json") }
        var keyWithFIDOCredential: String {
            get async throws {
                let keyFile = fidoKeyFile
                return try await image("key-fido", "security-key") { file in
                    let registered = try await NFCTool.run([
                        "fido", "register", "--rp", "example.com", "-o", keyFile, "--reader", "sim:" + file,
                    ])
                    #expect(registered.status == 0, "\(registered.stderr)")
                }
            }
        }
    }

    private func run(_ arguments: [String], stdin: String? = nil) async throws -> NFCTool.Result {
        try await NFCTool.run(arguments, stdin: stdin)
    }

    /// A fresh copy of a template image, as a reader name.
    private func fresh(_ template: String) throws -> String {
        let file = path("run-\(UUID().uuidString).json")
        try FileManager.default.copyItem(atPath: template, toPath: file)
        return "sim:" + file
    }

    /// Runs a command with `--trace --stats --verbose` (each effect checked) and with
    /// `--remove-after 0` (the tag is gone before the first command).
    private func checkReaderOptions(_ image: String, _ arguments: [String]) async throws {
        let name = arguments.prefix(2).joined(separator: " ")
        let run = try await self.run(arguments + ["--reader", try fresh(image), "--trace", "--stats", "--verbose"])
        #expect(run.status == 0, "\(name): \(run.stderr)")
        #expect(run.stderr.contains("trace     activated") && run.stderr.contains(" > "), "\(name) --trace: \(run.stderr)")
        #expect(run.stderr.contains("stats: "), "\(name) --stats: \(run.stderr)")
        #expect(run.stderr.contains("nfc: debug "), "\(name) --verbose: \(run.stderr)")
        let removed = try await self.run(arguments + ["--reader", try fresh(image), "--remove-after", "0"])
        #expect(
            removed.status != 0 && (removed.stderr + removed.stdout).contains("left the field"),
            "\(name) --remove-after 0: \(removed.stderr)")
        let profiled = try await self.run(arguments + ["--reader", try fresh(image), "--reader-profile", "acr122u"])
        #expect(
            profiled.status == 64 && profiled.stderr.contains("--reader-profile is for PC/SC readers"),
            "\(name) --reader-profile: \(profiled.stderr)")
    }

    @Test func readerOptionsOnTheTagCommands() async throws {
        let t = Templates(self)
        let ntag = try await t.ntag
        for arguments in [
            ["scan"], ["read"], ["write", "--text", "x"], ["format", "--wipe"], ["lock"], ["dump"], ["restore", try await t.copy],
            ["protect", "--password", "01020304"],
        ] {
            try await checkReaderOptions(ntag, arguments)
        }
        try await checkReaderOptions(try await t.protectedNTAG, ["unprotect", "--password", "01020304"])
        try await checkReaderOptions(try await t.key, ["apdu", "00A4040007A0000005272101"])
    }

    @Test func readerOptionsOnTheOATHCommands() async throws {
        let t = Templates(self)
        let key = try await t.key
        let withCredential = try await t.keyWithCredential
        try await checkReaderOptions(withCredential, ["oath", "list"])
        try await checkReaderOptions(key, ["oath", "add", "b", "--secret", "JBSWY3DPEHPK3PXP"])
        try await checkReaderOptions(withCredential, ["oath", "code", "a", "--time", "59"])
        try await checkReaderOptions(withCredential, ["oath", "delete", "a"])
        try await checkReaderOptions(key, ["oath", "password", "--new", "pw"])
        try await checkReaderOptions(withCredential, ["oath", "reset"])
    }

    @Test func readerOptionsOnTheFIDOAndPIVCommands() async throws {
        let t = Templates(self)
        let key = try await t.key
        try await checkReaderOptions(key, ["fido", "info"])
        try await checkReaderOptions(key, ["fido", "register", "--rp", "example.org"])
        try await checkReaderOptions(try await t.keyWithFIDOCredential, ["fido", "assert", "--key-file", t.fidoKeyFile])
        try await checkReaderOptions(key, ["fido", "set-pin", "--new", "8642"])
        try await checkReaderOptions(key, ["fido", "reset", "--yes"])
        try await checkReaderOptions(key, ["piv", "status"])
        try await checkReaderOptions(key, ["piv", "generate", "9c", "--pin", "123456"])
        try await checkReaderOptions(try await t.keyWithPIVKey, ["piv", "sign", "9a", "--pin", "123456", "--data-hex", "00"])
        try await checkReaderOptions(key, ["piv", "change-pin", "--pin", "123456", "--new", "654321"])
        try await checkReaderOptions(key, ["piv", "change-puk", "--puk", "12345678", "--new", "87654321"])
        try await checkReaderOptions(key, ["piv", "unblock-pin", "--puk", "12345678", "--new", "111111"])
        try await checkReaderOptions(key, ["piv", "reset", "--yes"])
    }

    @Test func readerOptionsOnTheNTAG424Commands() async throws {
        let t = Templates(self)
        let tag = try await t.ntag424
        let zero = String(repeating: "00", count: 16)
        try await checkReaderOptions(tag, ["ntag424", "info"])
        try await checkReaderOptions(tag, ["ntag424", "read", "--file", "2", "--length", "4"])
        try await checkReaderOptions(tag, ["ntag424", "write", "--file", "2", "--hex", "0000"])
        try await checkReaderOptions(tag, ["ntag424", "sdm", "--key", zero, "--url", "https://x.org/?p={picc}&c={mac}"])
        try await checkReaderOptions(tag, ["ntag424", "change-key", "--key", zero, "--change", "1", "--new-key", zero])
        try await checkReaderOptions(tag, ["ntag424", "set-lrp", "--key", zero, "--yes"])
    }

    @Test func readerOptionsOnTheDESFireCommands() async throws {
        let t = Templates(self)
        let card = try await t.desfire
        let zero = String(repeating: "00", count: 16)
        let app = ["--aid", "000001"]
        try await checkReaderOptions(card, ["desfire", "info"])
        try await checkReaderOptions(card, ["desfire", "apps"])
        try await checkReaderOptions(card, ["desfire", "files"] + app)
        try await checkReaderOptions(card, ["desfire", "read"] + app + ["--file", "1"])
        try await checkReaderOptions(card, ["desfire", "write"] + app + ["--file", "2", "--hex", "0000"])
        try await checkReaderOptions(card, ["desfire", "create-file"] + app + ["--file", "3", "--type", "value"])
        try await checkReaderOptions(card, ["desfire", "delete-file"] + app + ["--file", "2", "--key", zero])
        try await checkReaderOptions(card, ["desfire", "change-key"] + app + ["--key", zero, "--change", "0", "--new-key", zero])
        try await checkReaderOptions(card, ["desfire", "create-app", "--aid", "000002"])
        try await checkReaderOptions(card, ["desfire", "create-app", "--aid", "000003", "--key-type", "3k3des", "--keys", "2"])
        try await checkReaderOptions(
            card,
            ["desfire", "change-key", "--key", zero, "--change", "0", "--new-key", zero, "--new-key-type", "aes", "--new-version", "2"])
        try await checkReaderOptions(card, ["desfire", "delete-app", "--aid", "000001", "--key", zero])
        try await checkReaderOptions(card, ["desfire", "format-picc", "--key", zero])
        try await checkReaderOptions(card, ["desfire", "set-config", "--random-id", "--yes", "--key", zero])
        let withValue = path("desfire-value.json")
        try FileManager.default.copyItem(atPath: card, toPath: withValue)
        let created = try await run(["desfire", "create-file", "--reader", "sim:" + withValue] + app + ["--file", "3", "--type", "value"])
        #expect(created.status == 0, "\(created.stderr)")
        try await checkReaderOptions(withValue, ["desfire", "value"] + app + ["--file", "3", "--credit", "1"])
    }

    @Test func readerOptionsOnTheMIFAREPlusCommands() async throws {
        let t = Templates(self)
        let card = try await t.mifarePlus
        let key = ["--key", String(repeating: "FF", count: 16)]
        try await checkReaderOptions(card, ["mifare-plus", "info"])
        try await checkReaderOptions(card, ["mifare-plus", "read", "--block", "4"] + key)
        try await checkReaderOptions(card, ["mifare-plus", "write", "--block", "5", "--hex", String(repeating: "55", count: 16)] + key)
        try await checkReaderOptions(card, ["mifare-plus", "value", "--block", "6", "--set", "9"] + key)
        let blank = try await t.mifarePlusPersonalized
        try await checkReaderOptions(blank, ["mifare-plus", "perso", "--address", "0004", "--hex", String(repeating: "44", count: 16)])
        try await checkReaderOptions(blank, ["mifare-plus", "commit"])
    }

    @Test func readerOptionsOnThePassportCommand() async throws {
        let card = try await Templates(self).passport
        try await checkReaderOptions(card, ["passport", "read", "--mrz", "L898902C3,740812,120415"])
    }

    @Test func typeTwoPasswordOptionsOpenAProtectedTagForEveryCommand() async throws {
        let t = Templates(self)
        let commands: [[String]] = [
            ["scan"], ["read"], ["write", "--text", "y"], ["format", "--wipe"], ["lock"], ["dump"], ["restore", try await t.copy],
        ]
        for arguments in commands {
            let name = arguments[0]
            let closed = try await run(arguments + ["--reader", try fresh(try await t.protectedNTAG)])
            #expect(closed.status != 0, "\(name) without the password is refused")
            let given = try await run(arguments + ["--reader", try fresh(try await t.protectedNTAG), "--password", "01020304"])
            #expect(given.status == 0, "\(name) --password: \(given.stderr)")
            let fromFile = try await run(
                arguments + ["--reader", try fresh(try await t.protectedNTAG), "--password-file", "-", "--pack", "ABCD"],
                stdin: "01020304\n")
            #expect(fromFile.status == 0, "\(name) --password-file - --pack: \(fromFile.stderr)")
            let wrongPACK = try await run(
                arguments + ["--reader", try fresh(try await t.protectedNTAG), "--password", "01020304", "--pack", "0000"])
            #expect(wrongPACK.status == 4, "\(name) --pack checks the answer: \(wrongPACK.stderr)")
        }
        let wrongUnprotect = try await run([
            "unprotect", "--reader", try fresh(try await t.protectedNTAG), "--password", "01020304", "--pack", "0000",
        ])
        #expect(wrongUnprotect.status == 4, "unprotect checks --pack first: \(wrongUnprotect.stderr)")
        let unprotect = try await run(
            ["unprotect", "--reader", try fresh(try await t.protectedNTAG), "--password-file", "-", "--pack", "abcd", "--json"],
            stdin: "01020304\n")
        #expect(unprotect.status == 0, "\(unprotect.stderr)")
        #expect(try JSONSerialization.jsonObject(with: Data(unprotect.stdout.utf8)) is [String: Any], "\(unprotect.stdout)")
        let protectReader = try fresh(try await t.ntag)
        let protect = try await run(["protect", "--reader", protectReader, "--password-file", "-"], stdin: "0a0b0c0d\n")
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(try await run(["write", "--reader", protectReader, "--text", "z"]).status != 0, "the password from the file is set")
        #expect(try await run(["write", "--reader", protectReader, "--text", "z", "--password", "0a0b0c0d"]).status == 0)
    }

    @Test func jsonOnTheCommandsThatChangeAnAuthenticator() async throws {
        let t = Templates(self)
        let commands: [(String, [String])] = [
            (try await t.keyWithCredential, ["oath", "delete", "a"]), (try await t.key, ["oath", "password", "--new", "pw"]),
            (try await t.key, ["oath", "reset"]),
            (try await t.key, ["fido", "set-pin", "--new", "8642"]),
            (try await t.key, ["piv", "change-pin", "--pin", "123456", "--new", "654321"]),
            (try await t.key, ["piv", "change-puk", "--puk", "12345678", "--new", "87654321"]),
            (try await t.key, ["piv", "reset", "--yes"]),
        ]
        for (image, arguments) in commands {
            let result = try await run(arguments + ["--reader", try fresh(image), "--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any], "\(arguments): \(result.stdout)")
        }
    }

    @Test func oathPasswordOnAddAndDelete() async throws {
        let t = Templates(self)
        let reader = try fresh(try await t.keyWithCredential)
        #expect(try await run(["oath", "password", "--new", "s3cret", "--reader", reader]).status == 0)
        let refused = try await run(["oath", "add", "b", "--secret", "JBSWY3DPEHPK3PXP", "--reader", reader])
        #expect(refused.status != 0 && refused.stderr.contains("--password"))
        let added = try await run(["oath", "add", "b", "--secret", "JBSWY3DPEHPK3PXP", "--reader", reader, "--password", "s3cret"])
        #expect(added.status == 0, "\(added.stderr)")
        let deleted = try await run(["oath", "delete", "a", "--reader", reader, "--password", "s3cret"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let listed = try await run(["oath", "list", "--reader", reader, "--password", "s3cret"])
        #expect(listed.stdout.contains("b") && !listed.stdout.split(separator: "\n").contains { $0.hasPrefix("a ") }, "\(listed.stdout)")
    }

    @Test func u2fIsRefusedWhereCTAP2AloneAppliesAndAssertsAU2FCredential() async throws {
        let t = Templates(self)
        let setPIN = try await run(["fido", "set-pin", "--u2f", "--new", "1234", "--reader", try fresh(try await t.key)])
        #expect(setPIN.status == 64 && setPIN.stderr.contains("U2F has no PIN"), "\(setPIN.stderr)")
        let reset = try await run(["fido", "reset", "--u2f", "--yes", "--reader", try fresh(try await t.key)])
        #expect(reset.status == 64 && reset.stderr.contains("CTAP2 command"), "\(reset.stderr)")
        let reader = try fresh(try await t.key)
        let keyFile = path("u2f.json")
        #expect(try await run(["fido", "register", "--u2f", "--rp", "example.com", "-o", keyFile, "--reader", reader]).status == 0)
        let assert = try await run(["fido", "assert", "--u2f", "--key-file", keyFile, "--reader", reader, "--json"])
        #expect(assert.status == 0, "\(assert.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(assert.stdout.utf8)) as? [String: Any])
        #expect(object["protocol"] as? String == "u2f" && object["signatureVerified"] as? Bool == true, "\(assert.stdout)")
    }

    @Test func recordOptionsOnWrite() async throws {
        let t = Templates(self)
        let payload = path("payload.txt")
        try Data("from a file".utf8).write(to: URL(fileURLWithPath: payload))
        let reader = try fresh(try await t.ntag)
        let written = try await run([
            "write", "--reader", reader, "--mime", "text/plain", "--payload-file", payload, "--external", "example.com:t",
            "--payload-hex", "0102",
        ])
        #expect(written.status == 0, "\(written.stderr)")
        let read = try await run(["read", "--reader", reader, "--json"])
        let records = try #require(
            (try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])?["records"] as? [[String: Any]])
        #expect(records.count == 2, "\(read.stdout)")
        #expect(read.stdout.contains("from a file") || read.stdout.contains("66726f6d20612066696c65"), "\(read.stdout)")
        #expect(read.stdout.contains("example.com:t"), "\(read.stdout)")
        let old = try await run(["write", "--reader", try fresh(try await t.ntag), "--mime", "text/plain", "--file", payload])
        #expect(old.status == 0 && old.stderr.contains("--file is deprecated"), "\(old.stderr)")
    }

    @Test func theRemainingOptions() async throws {
        let t = Templates(self)
        // piv sign -o replaces an existing signature file only with --force.
        let reader = try fresh(try await t.keyWithPIVKey)
        let signature = path("signature.der")
        try Data("old".utf8).write(to: URL(fileURLWithPath: signature))
        let sign = ["piv", "sign", "9a", "--pin", "123456", "--data-hex", "00", "--reader", reader, "-o", signature]
        let refused = try await run(sign)
        let kept = try String(contentsOfFile: signature, encoding: .utf8)
        #expect(refused.status == 2 && kept == "old", "\(refused.stderr)")
        let forced = try await run(sign + ["--force"])
        let replaced = try Data(contentsOf: URL(fileURLWithPath: signature))
        #expect(forced.status == 0 && replaced.first == 0x30, "a DER signature replaced it: \(forced.stderr)")

        // tag import -o replaces an existing image only with --force.
        let dump = path("tag.nfc")
        try Data(FlipperFixtures.ntag213.utf8).write(to: URL(fileURLWithPath: dump))
        let image = path("imported.json")
        #expect(try await run(["tag", "import", dump, "-o", image]).status == 0)
        #expect(try await run(["tag", "import", dump, "-o", image]).status != 0)
        #expect(try await run(["tag", "import", dump, "-o", image, "--force"]).status == 0)

        // tag new --message: the old spelling of --pass-message.
        let phone = path("phone.json")
        let old = try await run(["tag", "new", "wallet-pass", "-o", phone, "--message", "stamp"])
        #expect(old.status == 0 && old.stderr.contains("--message TEXT on tag new is deprecated"), "\(old.stderr)")

        // watch --device takes the device states dispatch does; a wrong one is refused before anything starts.
        let device = try await run(["watch", "--reader", "sim:" + directory.path, "--device", "pocket"])
        #expect(device.status == 64 && device.stderr.contains("pocket"), "\(device.stderr)")
    }
}
