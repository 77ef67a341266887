import Foundation
import Testing

/// `nfc sun verify` on NXP's published SUN messages (AN12196, factory keys).
@Suite struct SUNCommandTests {
    static let zero = String(repeating: "00", count: 16)
    static let encrypted = "https://choose.url.com/ntag424?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086"
    static let withFile =
        "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"

    @Test func aValidMessage() async throws {
        let run = try await NFCTool.run(["sun", "verify", Self.encrypted, "--key", Self.zero])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "valid, UID 04DE5F1EACC040, read counter 61\n")
    }

    @Test func jsonWithTheFileKeyFromStandardInput() async throws {
        let run = try await NFCTool.run(
            ["sun", "verify", Self.withFile, "--key", Self.zero, "--file-key", "-", "--json"], stdin: Self.zero + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        #expect(object["uid"] as? String == "04958caa5c5e80")
        #expect(object["counter"] as? Int == 8)
        #expect((object["fileData"] as? String)?.count == 32)
    }

    @Test func anAlteredMessageIsInvalidWithExitStatus1() async throws {
        let altered = Self.encrypted.replacingOccurrences(of: "cmac=94EE", with: "cmac=94EF")
        let run = try await NFCTool.run(["sun", "verify", altered, "--key", "-", "--json"], stdin: Self.zero + "\n")
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        #expect(object["counter"] as? Int == 61)
    }

    @Test func badInputAndBadKeys() async throws {
        let malformed = try await NFCTool.run(["sun", "verify", "https://example.com/?cmac=94EED9EE65337086", "--key", Self.zero])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("no PICC data"))
        let short = try await NFCTool.run(["sun", "verify", Self.encrypted, "--key", "0011"])
        #expect(short.status == 64)
        #expect(short.stderr.contains("16 bytes"))
        let wrong = try await NFCTool.run(["sun", "verify", Self.encrypted, "--key", String(repeating: "42", count: 16)])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("meta read key"))
    }
}
