import Foundation
import NFCTestSupport
import Testing

/// `nfc ntag424` on a virtual NTAG 424 DNA image: info, keys, SUN set-up, reads and writes.
@Suite struct NTAG424CommandTests {
    static let zero = String(repeating: "00", count: 16)
    static let meta = "00112233445566778899AABBCCDDEEFF"
    static let file = "0F0E0D0C0B0A09080706050403020100"

    func image() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ntag424-\(UUID().uuidString).json").path
        let made = try await NFCTool.run(["tag", "new", "ntag424", "-o", path])
        #expect(made.status == 0, "\(made.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the image holds AES keys")
        return path
    }

    @Test func infoOfANewTag() async throws {
        let path = try await image()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try await NFCTool.run(["ntag424", "info", "--reader", "sim:" + path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("NTAG 424 DNA: yes"))
        #expect(text.stdout.contains("file 2: 256 bytes, plain, read free, write free, read-write free, change key 0"))
        #expect(text.stdout.contains("file 3: 128 bytes, full, read key 2, write key 3"))
        #expect(text.stdout.contains("originality: signed with the OpenCoreNFC simulator test key: a virtual card"), "\(text.stdout)")
        let json = try await NFCTool.run(
            ["ntag424", "info", "--reader", "sim:" + path, "--key", "-", "--key-number", "0", "--json"], stdin: Self.zero + "\n")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["uidAuthenticated"] as? Bool == true)
        #expect(object["uid"] as? String == "04424e54343290")
        #expect((object["files"] as? [[String: Any]])?.count == 3)
        let originality = try #require(object["originality"] as? [String: Any])
        #expect(originality["valid"] as? Bool == true && originality["testKey"] as? Bool == true)
        #expect((originality["signature"] as? String)?.count == 112, "56 bytes, read in the session (full mode)")
    }

    /// Keys changed, SUN set up, then two reads of the NDEF file give two URLs `nfc sun verify` accepts,
    /// counters one apart.
    @Test func sunSetUpThenVerify() async throws {
        let path = try await image()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = "sim:" + path
        for (number, key) in [("2", Self.meta), ("1", Self.file)] {
            let changed = try await NFCTool.run(
                [
                    "ntag424", "change-key", "--reader", sim, "--key", Self.zero, "--change", number, "--new-key", "-", "--old-key",
                    Self.zero, "--new-version", "2",
                ],
                stdin: key + "\n")
            #expect(changed.status == 0, "\(changed.stderr)")
        }
        let sdm = try await NFCTool.run([
            "ntag424", "sdm", "--reader", sim, "--key", Self.zero, "--key-number", "0", "--url",
            "https://example.org/t?picc_data={picc}&enc={enc:0123456789abcdef}&cmac={mac}", "--meta-key", "2", "--file-key", "1",
            "--counter-key", "free",
        ])
        #expect(sdm.status == 0, "\(sdm.stderr)")
        var counters: [Int] = []
        for _ in 0..<2 {
            let read = try await NFCTool.run(["ntag424", "read", "--reader", sim, "--file", "2", "--offset", "2", "--json"])
            #expect(read.status == 0, "\(read.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
            let bytes = hexBytes(try #require(object["data"] as? String))
            // A short URI record: header, type length, payload length, U, prefix 04 (https://).
            try #require(bytes.count >= 5 && bytes[2] >= 1 && bytes.count >= 4 + Int(bytes[2]), "not a short URI record: \(read.stdout)")
            let url = "https://" + String(decoding: bytes[5..<4 + Int(bytes[2])], as: UTF8.self)
            let verified = try await NFCTool.run(["sun", "verify", url, "--key", Self.meta, "--file-key", Self.file, "--json"])
            #expect(verified.status == 0, "\(url): \(verified.stdout)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
            counters.append(try #require(result["counter"] as? Int))
        }
        #expect(counters == [1, 2])
        let versions = try await NFCTool.run(["ntag424", "info", "--reader", sim, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(versions.stdout.utf8)) as? [String: Any])
        #expect(object["keyVersions"] as? [Int] == [0, 2, 2, 0, 0])
    }

    /// `set-lrp` asks first, then switches for good; every other subcommand then speaks LRP by
    /// itself, `sdm` lays `{picc}` out at 48 characters, and `nfc sun verify` says "(LRP)".
    @Test func lrpModeThroughTheCLI() async throws {
        let path = try await image()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = "sim:" + path
        let unconfirmed = try await NFCTool.run(["ntag424", "set-lrp", "--reader", sim, "--key", Self.zero], stdin: "n\n")
        #expect(unconfirmed.status != 0, "no --yes, no terminal: refused")
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("\"lrp\""))
        let switched = try await NFCTool.run(["ntag424", "set-lrp", "--reader", sim, "--key", "-", "--yes"], stdin: Self.zero + "\n")
        #expect(switched.status == 0 && switched.stdout.contains("LRP mode on"), "\(switched.stderr)")
        let again = try await NFCTool.run(["ntag424", "set-lrp", "--reader", sim, "--key", Self.zero, "--yes"])
        #expect(again.status == 0 && again.stdout.contains("already"), "\(again.stderr)")
        let sdm = try await NFCTool.run([
            "ntag424", "sdm", "--reader", sim, "--key", Self.zero, "--url", "https://example.org/t?picc_data={picc}&cmac={mac}",
            "--meta-key", "2", "--file-key", "1",
        ])
        #expect(sdm.status == 0, "\(sdm.stderr)")
        for expected in [1, 2] {
            let read = try await NFCTool.run(["ntag424", "read", "--reader", sim, "--file", "2", "--offset", "2", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
            let bytes = hexBytes(try #require(object["data"] as? String))
            try #require(bytes.count >= 5 && bytes[2] >= 1 && bytes.count >= 4 + Int(bytes[2]), "not a short URI record: \(read.stdout)")
            let url = "https://" + String(decoding: bytes[5..<4 + Int(bytes[2])], as: UTF8.self)
            #expect(url.contains("picc_data=") && url.split(separator: "=")[1].prefix(48).allSatisfy(\.isHexDigit))
            let verified = try await NFCTool.run(["sun", "verify", url, "--key", Self.zero, "--file-key", Self.zero])
            #expect(verified.status == 0 && verified.stdout.contains("read counter \(expected) (LRP)"), "\(url): \(verified.stdout)")
        }
        let write = try await NFCTool.run([
            "ntag424", "write", "--reader", sim, "--file", "3", "--hex", "CAFE", "--key", Self.zero, "--key-number", "3",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        let read = try await NFCTool.run([
            "ntag424", "read", "--reader", sim, "--file", "3", "--length", "2", "--key", Self.zero, "--key-number", "2",
        ])
        #expect(read.stdout == "CAFE\n", "\(read.stderr)")
        let info = try await NFCTool.run(["ntag424", "info", "--reader", sim, "--key", Self.zero])
        #expect(info.status == 0 && info.stdout.contains("(GetCardUID)"), "\(info.stderr)")
    }

    @Test func authenticatedWriteAndReadOfTheProprietaryFile() async throws {
        let path = try await image()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = "sim:" + path
        let write = try await NFCTool.run([
            "ntag424", "write", "--reader", sim, "--file", "3", "--hex", "CAFE", "--offset", "4", "--key", Self.zero, "--key-number", "3",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        let read = try await NFCTool.run([
            "ntag424", "read", "--reader", sim, "--file", "3", "--length", "8", "--key", Self.zero, "--key-number", "2",
        ])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == "00000000CAFE0000\n")
        let refused = try await NFCTool.run(["ntag424", "read", "--reader", sim, "--file", "3"])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("ReadData: 91 AE"))
        let wrongKey = try await NFCTool.run(["ntag424", "read", "--reader", sim, "--file", "3", "--key", Self.meta, "--key-number", "2"])
        #expect(wrongKey.status == 4)
        #expect(wrongKey.stderr.contains("AuthenticateEV2First"))
    }

    @Test func badArgumentsAndOtherTags() async throws {
        let path = try await image()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = "sim:" + path
        let noMAC = try await NFCTool.run(["ntag424", "sdm", "--reader", sim, "--key", Self.zero, "--url", "https://x.org/?p={picc}"])
        #expect(noMAC.status == 64 && noMAC.stderr.contains("{mac}"))
        let badFile = try await NFCTool.run(["ntag424", "read", "--reader", sim, "--file", "4"])
        #expect(badFile.status == 64)
        let shortKey = try await NFCTool.run([
            "ntag424", "change-key", "--reader", sim, "--key", "00", "--change", "1", "--new-key", Self.zero,
        ])
        #expect(shortKey.status == 64 && shortKey.stderr.contains("16 bytes"))
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("ntag213-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "-o", other]).status == 0)
        let notDNA = try await NFCTool.run(["ntag424", "info", "--reader", "sim:" + other])
        #expect(notDNA.status == 3 && notDNA.stderr.contains("not an NTAG 424 DNA"))
    }
}
