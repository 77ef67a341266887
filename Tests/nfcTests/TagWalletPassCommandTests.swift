import Crypto
import Foundation
import NFCSimulator
import Testing

/// `nfc tag new wallet-pass`: a phone image a VAS terminal reads, and the merchant key to decrypt
/// what it returns, written private to its owner. Driven from outside with `nfc apdu` (SELECT
/// OSE.VAS.01, GET VAS DATA; docs/vas-protocol.md).
@Suite(.serialized) struct TagWalletPassCommandTests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    @Test func aNewWalletPassAnswersVASAndItsKeyOpensTheCryptogram() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-wallet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("phone.json").path
        let passType = "pass.com.example.coffee"
        let created = try await NFCTool.run([
            "tag", "new", "wallet-pass", "-o", path, "--pass-type-id", passType, "--pass-message", "stamp 7",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let keyPath = path + ".merchant-key.pem"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let merchant = try P256.KeyAgreement.PrivateKey(pemRepresentation: try String(contentsOfFile: keyPath, encoding: .utf8))

        let select = "00A404000A" + Self.hex("OSE.VAS.01".utf8) + "00"
        let fields = "9F22020100" + "9F2520" + Self.hex(SHA256.hash(data: Array(passType.utf8))) + "9F260400800002"
        let getVASData = "80CA0101" + String(format: "%02X", fields.count / 2) + fields + "00"
        let exchange = try await NFCTool.run(["apdu", "--reader", "sim:\(path)", select, getVASData])
        #expect(exchange.status == 0, "\(exchange.stderr)")
        let lines = exchange.stdout.split(separator: "\n").map(String.init)
        let answer = try #require(lines.last?.split(separator: " ").map(String.init))
        #expect(answer.last == "9000")
        // 70 L 9F2A 00 9F27 L <cryptogram>
        let data = try #require(answer.first.map { VASCryptogramBytes.parse($0) })
        #expect(Array(data.prefix(2)) == [0x70, UInt8(data.count - 2)])
        let cryptogram = Array(data.dropFirst(8))
        let contents = try VASCryptogram.open(cryptogram, passTypeIdentifier: passType, merchant: merchant)
        #expect(contents.message == Array("stamp 7".utf8))

        // Without --force, neither the image nor the key is replaced.
        let again = try await NFCTool.run(["tag", "new", "wallet-pass", "-o", path])
        #expect(again.status != 0)
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == merchant.pemRepresentation)
    }

    @Test func walletOptionsAreRefusedForOtherTypesAndMessagesOver64Bytes() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-wallet-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try await NFCTool.run(["tag", "new", "ntag213", "-o", path, "--pass-message", "x"]).status == 64)
        let long = try await NFCTool.run(["tag", "new", "wallet-pass", "-o", path, "--pass-message", String(repeating: "m", count: 65)])
        #expect(long.status == 2)
        #expect(long.stderr.contains("at most 64"))
    }
}

/// Hex text to bytes, for answers `nfc apdu` prints.
enum VASCryptogramBytes {
    static func parse(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), next > index {
            guard let byte = UInt8(text[index..<next], radix: 16) else { return [] }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
