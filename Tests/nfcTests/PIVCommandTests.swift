import Crypto
import Foundation
import Testing

/// `nfc piv status|generate|sign` on a simulated security key, run as a user would.
@Suite(.serialized) struct PIVCommandTests {
    private func securityKey() async throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-piv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("key.json").path
        let created = try await NFCTool.run(["tag", "new", "security-key", "-o", path])
        #expect(created.status == 0, "\(created.stderr)")
        return (directory, "sim:" + path)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index != hex.endIndex {
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    @Test func generateThenStatusThenSign() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try json(try await NFCTool.run(["piv", "status", "--reader", reader, "--json"]).stdout)
        let pin = try #require(before["pin"] as? [String: Any])
        #expect(pin["retries"] as? Int == 3)
        let chuid = try #require(before["chuid"] as? [String: Any])
        #expect((chuid["guid"] as? String)?.count == 32)

        let generated = try await NFCTool.run([
            "piv", "generate", "9a", "--pin", "123456", "--subject", "CLI Test", "--reader", reader, "--json",
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let generation = try json(generated.stdout)
        let publicKey = try P256.Signing.PublicKey(x963Representation: bytes(try #require(generation["publicKey"] as? String)))
        #expect(generation["subject"] as? String == "CN=CLI Test")

        let status = try await NFCTool.run(["piv", "status", "--reader", reader])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Slot 9a (PIV authentication): certificate CN=CLI Test (issuer CN=CLI Test)"))
        #expect(status.stdout.contains("Slot 9c (digital signature): no certificate"))

        let signed = try await NFCTool.run(["piv", "sign", "9a", "--pin", "123456", "--data-hex", "01020304", "--reader", reader, "--json"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let signature = try P256.Signing.ECDSASignature(
            derRepresentation: bytes(try #require(try json(signed.stdout)["signature"] as? String)))
        #expect(publicKey.isValidSignature(signature, for: SHA256.hash(data: [1, 2, 3, 4])))
        #expect(!publicKey.isValidSignature(signature, for: SHA256.hash(data: [1, 2, 3, 5])))
    }

    @Test func failuresAreOneLine() async throws {
        let (directory, reader) = try await securityKey()
        defer { try? FileManager.default.removeItem(at: directory) }
        let noKey = try await NFCTool.run(["piv", "sign", "9e", "--data-hex", "00", "--reader", reader])
        #expect(noKey.status != 0)
        #expect(noKey.stderr.contains("6A88"))
        let wrongPIN = try await NFCTool.run(["piv", "sign", "9a", "--pin", "999999", "--data-hex", "00", "--reader", reader])
        #expect(wrongPIN.stderr.contains("wrong PIN, 2 tries left"), "\(wrongPIN.stderr)")
        let wrongKey = try await NFCTool.run([
            "piv", "generate", "9e", "--management-key", String(repeating: "00", count: 24), "--reader", reader,
        ])
        #expect(wrongKey.status != 0)
        #expect(wrongKey.stderr.contains("rejected the management key"), "\(wrongKey.stderr)")
        let needsPIN = try await NFCTool.run(["piv", "generate", "9c", "--reader", reader])
        #expect(needsPIN.stderr.contains("give --pin"), "\(needsPIN.stderr)")
        let badSlot = try await NFCTool.run(["piv", "sign", "9b", "--data-hex", "00", "--reader", reader])
        #expect(badSlot.status != 0)
        let notPIV = try await NFCTool.run(["piv", "status", "--reader", "sim:" + directory.appendingPathComponent("missing.json").path])
        #expect(notPIV.status != 0)
        // 9e needs no PIN: generate then sign without one.
        let generated = try await NFCTool.run(["piv", "generate", "9e", "--reader", reader])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("-----BEGIN CERTIFICATE-----"))
        let signed = try await NFCTool.run(["piv", "sign", "9e", "--data-hex", "00", "--reader", reader])
        #expect(signed.status == 0 && signed.stdout.hasPrefix("30"), "\(signed.stderr)")
    }
}
