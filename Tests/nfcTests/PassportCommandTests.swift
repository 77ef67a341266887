import Foundation
import NFCTestSupport
import Testing

/// `nfc tag new passport|id-card` and `nfc passport read` with every option, and each failure's
/// exit status and message.
@Suite struct PassportCommandTests {
    static let specimen = ["--mrz", "L898902C3,740812,120415"]

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("passport-\(UUID().uuidString)-\(name)").path
    }

    func run(_ arguments: [String]) async throws -> NFCTool.Result {
        let result = try await NFCTool.run(arguments)
        #expect(result.status == 0, "\(arguments.prefix(3).joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test("a holder of one's own, read back: MRZ, face, export, JSON, the CSCA file; the image is private")
    func ownHolder() async throws {
        let image = temporary("p.json")
        let csca = temporary("csca.pem")
        let face = temporary("face.jpg")
        let export = temporary("export")
        let faceIn = temporary("in.jpg")
        defer { for path in [image, csca, face, export, faceIn] { try? FileManager.default.removeItem(atPath: path) } }
        // A JPEG of the smallest shape the issuer reads: SOI, an SOF0 of 2 × 3 pixels, EOI.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x03, 0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9]
        try Data(jpeg).write(to: URL(fileURLWithPath: faceIn))
        let made = try await run([
            "tag", "new", "passport", "-o", image, "--csca-out", csca, "--document-number", "c01x00t47", "--personal-number", "12345",
            "--birth", "900101", "--expiry", "300101", "--name", "Doe, John Q", "--sex", "M", "--nationality", "nld", "--face", faceIn,
            "--no-chip-authentication", "--no-active-authentication",
        ])
        #expect(made.stdout.contains("passport C01X00T47, born 900101, expires 300101, BAC"), "\(made.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: image)[.posixPermissions] as? Int == 0o600, "personal data")

        let read = try await run([
            "passport", "read", "--reader", "sim:" + image, "--mrz", "C01X00T47,900101,300101", "--csca", csca, "--face", face,
            "--export", export,
        ])
        #expect(read.stdout.contains("holder: DOE, JOHN Q; sex M; nationality NLD; born 900101"), "\(read.stdout)")
        #expect(read.stdout.contains("document: P NLD C01X00T47, expires 300101, optional data 12345"), "\(read.stdout)")
        #expect(read.stdout.contains("refused: DG3") && read.stdout.contains("partial: 1 file"), "\(read.stdout)")
        #expect(read.stdout.contains("face: JPEG 2×3, 17 bytes"), "\(read.stdout)")
        #expect(read.stdout.contains("Document Signer chain: passed"), "\(read.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: face)) == Data(jpeg))
        #expect(try FileManager.default.attributesOfItem(atPath: face)[.posixPermissions] as? Int == 0o600)
        let exported = try FileManager.default.contentsOfDirectory(atPath: export).sorted()
        #expect(exported == ["DG1.bin", "DG11.bin", "DG12.bin", "DG2.bin", "EF_COM.bin", "EF_SOD.bin"])

        let lines = try await run([
            "passport", "read", "--reader", "sim:" + image, "--mrz-line", "P<NLDDOE<<JOHN<Q<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
            "--mrz-line", "C01X00T478NLD9001011M300101912345<<<<<<<<<98", "--files", "DG1", "--json",
        ])
        #expect(lines.stdout.contains("\"DG1\" : 93") || lines.stdout.contains("\"DG1\": 93"), "\(lines.stdout)")
        #expect(!lines.stdout.contains("\"face\""), "--files DG1 reads DG1 only, no DG2: \(lines.stdout)")
    }

    @Test("an ID card without BAC, read with --no-bac; a CSCA directory, then a master list in it")
    func idCardWithoutBAC() async throws {
        let image = temporary("id.json")
        let directory = temporary("cscas")
        defer { for path in [image, directory] { try? FileManager.default.removeItem(atPath: path) } }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try await run(["tag", "new", "id-card", "-o", image, "--no-bac", "--no-pace", "--csca-out", directory + "/utopia.pem"])
        let read = try await run(["passport", "read", "--reader", "sim:" + image, "--no-bac", "--csca", directory])
        #expect(read.stdout.contains("identity document (TD1 MRZ), access: none"), "\(read.stdout)")
        #expect(read.stdout.contains("passive authentication: passed"), "\(read.stdout)")

        // The same CSCA inside a master list (ICAO Doc 9303 Part 12 §9), alone in the directory.
        let pem = try String(contentsOfFile: directory + "/utopia.pem", encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let certificate = [UInt8](try #require(Data(base64Encoded: body)))
        try FileManager.default.removeItem(atPath: directory + "/utopia.pem")
        try Data(Self.masterList([certificate])).write(to: URL(fileURLWithPath: directory + "/utopia.ml"))
        let viaList = try await run(["passport", "read", "--reader", "sim:" + image, "--no-bac", "--csca", directory])
        #expect(viaList.stdout.contains("Document Signer chain: passed"), "\(viaList.stdout)")
        try Data([0x30, 0x03, 0x02, 0x01, 0x00]).write(to: URL(fileURLWithPath: directory + "/broken.ml"))
        let broken = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--no-bac", "--csca", directory])
        #expect(broken.status == 2 && broken.stderr.contains("broken.ml"), "\(broken.stderr)")
    }

    /// A DER object (X.690 §8.1: short or long definite length).
    static func der(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        if value.count < 0x80 { return [tag, UInt8(value.count)] + value }
        let length = value.count < 0x100 ? [UInt8(value.count)] : [UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        return [tag, 0x80 | UInt8(length.count)] + length + value
    }

    /// A CSCA master list: ContentInfo { signedData, [0] { SignedData { 3, {}, { id-icao-cscaMasterList,
    /// [0] OCTET STRING { SEQUENCE { 0, SET OF Certificate } } }, {} } } }, unsigned.
    static func masterList(_ certificates: [[UInt8]]) -> [UInt8] {
        let list = der(0x30, [0x02, 0x01, 0x00] + der(0x31, certificates.flatMap { $0 }))
        let masterListType: [UInt8] = [0x06, 0x06, 0x67, 0x81, 0x08, 0x01, 0x01, 0x02]
        let signedDataType: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let encapsulated = der(0x30, masterListType + der(0xA0, der(0x04, list)))
        let signedData = der(0x30, [0x02, 0x01, 0x03, 0x31, 0x00] + encapsulated + [0x31, 0x00])
        return der(0x30, signedDataType + der(0xA0, signedData))
    }

    @Test("PACE: --can and --pace-curve on the chip, --can and --bac on the reader")
    func pace() async throws {
        let image = temporary("pace.json")
        defer { try? FileManager.default.removeItem(atPath: image) }
        // Chip and active authentication are the next tests' subject; here they would only cost time.
        let made = try await run([
            "tag", "new", "passport", "-o", image, "--can", "4711", "--pace-curve", "P-256", "--no-chip-authentication",
            "--no-active-authentication",
        ])
        #expect(made.stdout.contains("BAC and PACE-GM (P-256, CAN 4711)"), "\(made.stdout)")
        let byCAN = try await run(["passport", "read", "--reader", "sim:" + image, "--can", "4711"])
        #expect(byCAN.stdout.contains("access: PACE (PACE-ECDH-GM-AES-128 on P-256)"), "\(byCAN.stdout)")
        let byMRZ = try await run(["passport", "read", "--reader", "sim:" + image, "--json"] + Self.specimen)
        #expect(
            byMRZ.stdout.contains("\"accessProtocol\" : \"PACE\"") || byMRZ.stdout.contains("\"accessProtocol\": \"PACE\""),
            "\(byMRZ.stdout)")
        let forcedBAC = try await run(["passport", "read", "--reader", "sim:" + image, "--bac"] + Self.specimen)
        #expect(forcedBAC.stdout.contains("access: BAC"), "\(forcedBAC.stdout)")
        let wrongCAN = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--can", "4712"])
        #expect(wrongCAN.status == 4 && wrongCAN.stderr.contains("CAN does not match"), "\(wrongCAN.stderr)")
        let canAndBAC = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--can", "4711", "--bac"])
        #expect(canAndBAC.status == 64, "\(canAndBAC.stderr)")
        let noPACE = try await NFCTool.run(["tag", "new", "passport", "-o", temporary("z.json"), "--no-pace", "--can", "1"])
        #expect(noPACE.status == 64, "\(noPACE.stderr)")
        let badCurve = try await NFCTool.run(["tag", "new", "passport", "-o", temporary("w.json"), "--pace-curve", "P-384"])
        #expect(badCurve.status == 64 && badCurve.stderr.contains("brainpoolP256r1 or P-256"), "\(badCurve.stderr)")
    }

    @Test("--pace-mapping IM and --chip-authentication-cipher 3DES: PACE-IM by CAN, both authentications verified")
    func integratedMappingAndTripleDES() async throws {
        let image = temporary("im.json")
        defer { try? FileManager.default.removeItem(atPath: image) }
        let made = try await run(["tag", "new", "passport", "-o", image, "--pace-mapping", "IM", "--chip-authentication-cipher", "3DES"])
        #expect(
            made.stdout.contains("PACE-IM (brainpoolP256r1, CAN 123456), chip authentication (3DES), active authentication (ECDSA P-256)"),
            "\(made.stdout)")
        let read = try await run(["passport", "read", "--reader", "sim:" + image, "--can", "123456"])
        #expect(read.stdout.contains("access: PACE (PACE-ECDH-IM-AES-128 on brainpoolP256r1)"), "\(read.stdout)")
        #expect(read.stdout.contains("chip authentication: verified (CA-ECDH-3DES on brainpoolP256r1)"), "\(read.stdout)")
        #expect(read.stdout.contains("active authentication: verified (ECDSA-SHA-256 on secp256r1)"), "\(read.stdout)")
    }

    @Test("--active-authentication-algorithm RSA on a BAC chip (JSON verdicts), and a chip with neither authentication")
    func rsaAndNeither() async throws {
        let image = temporary("rsa.json")
        let plain = temporary("plain.json")
        defer { for path in [image, plain] { try? FileManager.default.removeItem(atPath: path) } }
        let made = try await run(["tag", "new", "passport", "-o", image, "--no-pace", "--active-authentication-algorithm", "rsa"])
        #expect(made.stdout.contains("BAC, chip authentication (AES-128), active authentication (RSA-1024)"), "\(made.stdout)")
        let json = try await run(["passport", "read", "--reader", "sim:" + image, "--json"] + Self.specimen)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["chipAuthentication"] as? [String: Any])?["result"] as? String == "verified")
        let active = object?["activeAuthentication"] as? [String: Any]
        #expect(active?["result"] as? String == "verified" && active?["detail"] as? String == "ISO/IEC 9796-2 with SHA-1 on RSA-1024")

        _ = try await run(["tag", "new", "passport", "-o", plain, "--no-pace", "--no-chip-authentication", "--no-active-authentication"])
        let neither = try await run(["passport", "read", "--reader", "sim:" + plain] + Self.specimen)
        #expect(neither.stdout.contains("chip authentication: not offered"), "\(neither.stdout)")
        #expect(neither.stdout.contains("active authentication: not offered"), "\(neither.stdout)")
        #expect(!neither.stdout.contains("DG14"), "\(neither.stdout)")
    }

    @Test("a cloned chip exits 1 with chipNotGenuine; contradictory or unknown chip options are usage errors")
    func cloneAndUsageErrors() async throws {
        let image = temporary("ca.json")
        let clone = temporary("clone.json")
        defer { for path in [image, clone] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try await run(["tag", "new", "passport", "-o", image, "--no-pace", "--no-active-authentication"])
        // The same files on a chip holding another chip-authentication key.
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: image))) as? [String: Any])
        var tag = try #require(root["tag"] as? [String: Any])
        var applets = try #require(tag["applets"] as? [[String: Any]])
        var chip = try #require(applets[0]["chipAuthentication"] as? [String: Any])
        chip["key"] = String(repeating: "0", count: 62) + "2a"
        applets[0]["chipAuthentication"] = chip
        tag["applets"] = applets
        root["tag"] = tag
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: clone))
        let read = try await NFCTool.run(["passport", "read", "--reader", "sim:" + clone] + Self.specimen)
        #expect(
            read.status == 1 && read.stderr.contains("chipNotGenuine") && read.stderr.contains("does not hold that key"), "\(read.stderr)")

        for (arguments, message) in [
            (["--pace-mapping", "CAM"], "GM or IM"), (["--chip-authentication-cipher", "AES-256"], "AES-128 or 3DES"),
            (["--no-chip-authentication", "--chip-authentication-cipher", "3DES"], "needs chip authentication"),
            (["--no-pace", "--pace-mapping", "IM"], "need PACE"), (["--active-authentication-algorithm", "DSA"], "ECDSA or RSA"),
            (["--no-active-authentication", "--active-authentication-algorithm", "RSA"], "needs active authentication"),
        ] {
            let result = try await NFCTool.run(["tag", "new", "passport", "-o", temporary("u.json")] + arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test("failures: wrong MRZ (4), another CSCA (1), no access option (64), bad MRZ text (64), not an eMRTD (3)")
    func failures() async throws {
        let image = temporary("p.json")
        let other = temporary("other.json")
        let otherCSCA = temporary("other.pem")
        let ntag = temporary("ntag.json")
        defer { for path in [image, other, otherCSCA, ntag] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try await run(["tag", "new", "passport", "-o", image, "--no-chip-authentication", "--no-active-authentication"])
        _ = try await run([
            "tag", "new", "passport", "-o", other, "--csca-out", otherCSCA, "--no-chip-authentication", "--no-active-authentication",
        ])
        _ = try await run(["tag", "new", "type4", "-o", ntag])

        let wrong = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--mrz", "L898902C3,740812,120416"])
        #expect(wrong.status == 4 && wrong.stderr.contains("accessDenied"), "\(wrong.stderr)")
        let untrusted = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--csca", otherCSCA] + Self.specimen)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("untrustedSigner"), "\(untrusted.stderr)")
        let none = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image])
        #expect(none.status == 64 && none.stderr.contains("exactly one of --mrz"), "\(none.stderr)")
        let bad = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--mrz", "L898902C3,7408,120415"])
        #expect(bad.status == 64 && bad.stderr.contains("is not YYMMDD"), "\(bad.stderr)")
        let notPassport = try await NFCTool.run(["passport", "read", "--reader", "sim:" + ntag] + Self.specimen)
        #expect(notPassport.status == 3 && notPassport.stderr.contains("no eMRTD application"), "\(notPassport.stderr)")
        let badFiles = try await NFCTool.run(["passport", "read", "--reader", "sim:" + image, "--files", "DG1,EF.SOD"] + Self.specimen)
        #expect(badFiles.status == 64, "\(badFiles.stderr)")
        let badHolder = try await NFCTool.run(["tag", "new", "passport", "-o", temporary("x.json"), "--birth", "741312"])
        #expect(badHolder.status == 2 && badHolder.stderr.contains("dateOfBirth"), "\(badHolder.stderr)")
        let notForNTAG = try await NFCTool.run(["tag", "new", "ntag213", "-o", temporary("y.json"), "--birth", "740812"])
        #expect(notForNTAG.status == 64, "\(notForNTAG.stderr)")
    }
}
