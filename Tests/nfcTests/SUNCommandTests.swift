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

    /// An LRP-mode tag's message (nfc-developer/sdm-backend's `test_sdm_lrp1`, zero keys): the
    /// 48 hex digits of picc_data say LRP; --lrp on an AES message is refused as malformed.
    @Test func anLRPModeMessage() async throws {
        let url =
            "https://example.org/?picc_data=07D9CA2545881D4BFDD920BE1603268C0714420DD893A497&enc=D6E921C47DB4C17C56F979F81559BB83&cmac=F9481AC7D855BDB6"
        let text = try await NFCTool.run(["sun", "verify", url, "--key", Self.zero])
        #expect(
            text.status == 0 && text.stdout.hasPrefix("valid, UID 049B112A2F7080, read counter 4") && text.stdout.hasSuffix("(LRP)\n"),
            "\(text)")
        let json = try await NFCTool.run(["sun", "verify", url, "--key", Self.zero, "--lrp", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["cipher"] as? String == "lrp" && object["valid"] as? Bool == true)
        let forced = try await NFCTool.run(["sun", "verify", Self.encrypted, "--key", Self.zero, "--lrp"])
        #expect(forced.status == 2 && forced.stderr.contains("24 bytes"), "\(forced.stderr)")
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
