import Crypto
import Foundation
import NFCTestSupport
import Testing

/// Options no other CLI test reaches, so that every option of every command runs in a test
/// (`scripts/check-cli-coverage` finds each in the CLI tests or the integration suites).
@Suite(.serialized, .timeLimit(.minutes(2))) struct OptionCoverageCommandTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-coverage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    private func securityKey() async throws -> String {
        let file = path("key-\(UUID().uuidString).json")
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", file]).status == 0)
        return "sim:" + file
    }

    /// `apdu --raw`: a 61xx answer is printed as it came, not followed with GET RESPONSE (ISO/IEC 7816-4 §5.3.4).
    @Test func apduRawKeepsA61xxAnswer() async throws {
        let reader = try await securityKey()
        for index in 0..<12 {
            let name = "credential-\(index)-" + String(repeating: "x", count: 40)
            #expect(try await NFCTool.run(["oath", "add", name, "--secret", "JBSWY3DPEHPK3PXP", "--reader", reader]).status == 0)
        }
        // SELECT the OATH application, then LIST (A1h): more than 256 bytes, so the card says 61xx.
        let apdus = ["00A4040007A0000005272101", "00A1000000"]
        let raw = try await NFCTool.run(["apdu", "--raw", "--reader", reader] + apdus)
        #expect(raw.stdout.split(separator: "\n").last?.hasSuffix(" 6100") == true, "\(raw.stdout)")
        let followed = try await NFCTool.run(["apdu", "--reader", reader] + apdus)
        #expect(followed.stdout.split(separator: "\n").last?.hasSuffix(" 6100") == false, "GET RESPONSE sent: \(followed.stdout)")
    }

    /// `ndef encode --chunk-size`: payloads longer than N bytes become chunked records (NFC Forum
    /// NDEF 1.0 §2.3.3: the first with CF set, the middle ones TNF Unchanged), and decode joins them.
    @Test func chunkSizeChunksLongPayloads() async throws {
        let text = String(repeating: "chunk ", count: 10)
        let plain = try await NFCTool.run(["ndef", "encode", "--text", text])
        let chunked = try await NFCTool.run(["ndef", "encode", "--text", text, "--chunk-size", "16"])
        #expect(chunked.status == 0, "\(chunked.stderr)")
        let hex = chunked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hex.count > plain.stdout.trimmingCharacters(in: .whitespacesAndNewlines).count, "chunk headers add bytes")
        #expect(hex.hasPrefix("b1") || hex.hasPrefix("B1"), "MB, CF, SR and TNF 1 on the first chunk: \(hex.prefix(2))")
        let decoded = try await NFCTool.run(["ndef", "decode", hex, "--json"])
        #expect(decoded.status == 0 && decoded.stdout.contains(text), "\(decoded.stdout) \(decoded.stderr)")
        let bad = try await NFCTool.run(["ndef", "encode", "--text", text, "--chunk-size", "0"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    /// `tag new wallet-pass --merchant-key`: the pass encrypts to the given public key, and no
    /// private key is written beside the image.
    @Test func merchantKeyIsUsedAsGiven() async throws {
        let merchant = P256.KeyAgreement.PrivateKey()
        let publicPEM = path("merchant-public.pem")
        try Data(merchant.publicKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: publicPEM))
        let phone = path("phone.json")
        let created = try await NFCTool.run(["tag", "new", "wallet-pass", "-o", phone, "--merchant-key", publicPEM])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!FileManager.default.fileExists(atPath: phone + ".merchant-key.pem"), "the merchant keeps its private key")
        let image = try String(contentsOfFile: phone, encoding: .utf8)
        let x963 = merchant.publicKey.x963Representation.map { String(format: "%02x", $0) }.joined()
        #expect(image.lowercased().contains(String(x963.dropFirst(2).prefix(64))), "the image holds the merchant's public key")
        let bad = try await NFCTool.run(["tag", "new", "wallet-pass", "-o", path("bad.json"), "--merchant-key", phone])
        #expect(bad.status != 0 && !bad.stderr.isEmpty)
    }

    /// `oath add --counter`: a HOTP credential starts at the given counter (RFC 4226 Appendix D:
    /// the secret "12345678901234567890" gives 520489 at counter 9).
    @Test func oathCounterStartsTheHOTPCount() async throws {
        let reader = try await securityKey()
        let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  // Base32 of "12345678901234567890"
        let added = try await NFCTool.run(["oath", "add", "rfc", "--hotp", "--secret", secret, "--counter", "9", "--reader", reader])
        #expect(added.status == 0, "\(added.stderr)")
        let code = try await NFCTool.run(["oath", "code", "rfc", "--reader", reader])
        #expect(code.stdout.contains("520489"), "\(code.stdout) \(code.stderr)")
    }

    /// `piv sign --data FILE` signs the file's bytes; `piv generate --days N` sets the
    /// certificate's validity to N days (RFC 5280 §4.1.2.5, two UTCTimes).
    @Test func pivSignDataFileAndGenerateDays() async throws {
        let reader = try await securityKey()
        let generated = try await NFCTool.run(["piv", "generate", "9c", "--pin", "123456", "--days", "7", "--reader", reader, "--json"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let generation = try json(generated.stdout)
        let certificate = try #require(generation["certificate"] as? String)
        let times = Self.utcTimes(inDERHex: certificate)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) == 7 * 86_400, "\(times)") }

        let file = path("document.bin")
        try Data("sign me".utf8).write(to: URL(fileURLWithPath: file))
        let signed = try await NFCTool.run(["piv", "sign", "9c", "--pin", "123456", "--data", file, "--reader", reader, "--json"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let publicKey = try P256.Signing.PublicKey(x963Representation: hexBytes(try #require(generation["publicKey"] as? String)))
        let signature = try P256.Signing.ECDSASignature(
            derRepresentation: hexBytes(try #require(try json(signed.stdout)["signature"] as? String)))
        #expect(publicKey.isValidSignature(signature, for: SHA256.hash(data: Array("sign me".utf8))))
    }

    /// The UTCTimes (tag 17h, 13 bytes `YYMMDDhhmmssZ`) in a DER certificate, in order.
    static func utcTimes(inDERHex hex: String) -> [Date] {
        let der = hexBytes(hex)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmmss'Z'"
        var dates: [Date] = []
        var index = 0
        while index + 15 <= der.count {
            if der[index] == 0x17, der[index + 1] == 0x0D,
                let date = formatter.date(from: String(decoding: der[index + 2..<index + 15], as: UTF8.self))
            {
                dates.append(date)
                index += 15
            } else {
                index += 1
            }
        }
        return dates
    }
}
