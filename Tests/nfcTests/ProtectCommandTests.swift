import Foundation
import Testing

/// `nfc protect` / `nfc unprotect` and `--password` on the reading and writing commands, on a
/// simulated NTAG213 (NXP NTAG213/215/216 data sheet §8.8: PWD, PACK, PROT, AUTH0).
@Suite(.serialized, .timeLimit(.minutes(1))) struct ProtectCommandTests {
    private func ntag(_ kind: String = "ntag213") async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("protect-\(UUID().uuidString).json").path
        #expect(try await NFCTool.run(["tag", "new", kind, "-o", path]).status == 0)
        #expect(try await NFCTool.run(["write", "--reader", "sim:" + path, "--text", "secret plans"]).status == 0)
        return path
    }

    @Test func readProtectionNeedsThePasswordUntilUnprotected() async throws {
        let tag = "sim:" + (try await ntag())
        let protect = try await NFCTool.run(["protect", "--reader", tag, "--password", "11223344", "--pack", "abcd", "--read", "--json"])
        #expect(protect.status == 0, "\(protect.stderr)")
        #expect(protect.stdout.contains(#""pack" : "abcd""#) || protect.stdout.contains(#""pack": "abcd""#), "\(protect.stdout)")

        let locked = try await NFCTool.run(["read", "--reader", tag])
        #expect(locked.status != 0 && locked.stderr.contains("if the tag is password-protected, give --password"), "\(locked.stderr)")
        let scan = try await NFCTool.run(["scan", "--reader", tag])
        #expect(scan.status == 6 && scan.stdout.contains("give it with --password"), "\(scan.stdout)")

        let opened = try await NFCTool.run(["read", "--reader", tag, "--password", "11223344", "--pack", "ABCD", "--json"])
        #expect(opened.status == 0 && opened.stdout.contains("secret plans"), "\(opened.stderr)")
        let wrong = try await NFCTool.run(["read", "--reader", tag, "--password", "00000000"])
        #expect(wrong.status == 4 && wrong.stderr.contains("the tag refused the password"), "\(wrong.stderr)")
        let wrongPACK = try await NFCTool.run(["read", "--reader", tag, "--password", "11223344", "--pack", "0000"])
        #expect(wrongPACK.status == 4, "a PACK other than the expected one is refused: \(wrongPACK.stderr)")

        let written = try await NFCTool.run(
            ["write", "--reader", tag, "--password-file", "-", "--uri", "https://example.org/new"], stdin: "11223344\n")
        #expect(written.status == 0, "the password from standard input: \(written.stderr)")

        let unprotect = try await NFCTool.run(["unprotect", "--reader", tag, "--password", "11223344"])
        #expect(unprotect.status == 0, "\(unprotect.stderr)")
        let free = try await NFCTool.run(["read", "--reader", tag, "--json"])
        #expect(free.status == 0 && free.stdout.contains("https://example.org/new"), "\(free.stderr)")
    }

    @Test func writeProtectionLeavesReadsOpen() async throws {
        let tag = "sim:" + (try await ntag("ntag216"))
        #expect(try await NFCTool.run(["protect", "--reader", tag, "--password", "a1b2c3d4"]).status == 0)
        #expect(try await NFCTool.run(["read", "--reader", tag]).status == 0)
        let refused = try await NFCTool.run(["write", "--reader", tag, "--text", "no"])
        #expect(refused.status != 0)
        #expect(try await NFCTool.run(["write", "--reader", tag, "--password", "a1b2c3d4", "--text", "yes"]).status == 0)
        let again = try await NFCTool.run(["protect", "--reader", tag, "--password", "a1b2c3d4"])
        #expect(again.status != 0, "a protected tag is unprotected first: \(again.stderr)")
    }

    @Test func badPasswordsAndTagsAreRefused() async throws {
        let tag = "sim:" + (try await ntag())
        let short = try await NFCTool.run(["read", "--reader", tag, "--password", "1122"])
        #expect(short.status == 64 && short.stderr.contains("--password must be 4 bytes"), "\(short.stderr)")
        let both = try await NFCTool.run(["read", "--reader", tag, "--password", "11223344", "--password-file", "-"])
        #expect(both.status == 64)
        let packAlone = try await NFCTool.run(["read", "--reader", tag, "--pack", "0000"])
        #expect(packAlone.status == 64 && packAlone.stderr.contains("give --password too"))
        let type4 = FileManager.default.temporaryDirectory.appendingPathComponent("protect-\(UUID().uuidString).json").path
        #expect(try await NFCTool.run(["tag", "new", "type4", "-o", type4]).status == 0)
        let notType2 = try await NFCTool.run(["read", "--reader", "sim:" + type4, "--password", "11223344"])
        #expect(notType2.status == 64 && notType2.stderr.contains("NTAG21x and Ultralight EV1"), "\(notType2.stderr)")
        let protectType4 = try await NFCTool.run(["protect", "--reader", "sim:" + type4, "--password", "11223344"])
        #expect(protectType4.status == 64 && protectType4.stderr.contains("type4"), "\(protectType4.stderr)")
    }
}
