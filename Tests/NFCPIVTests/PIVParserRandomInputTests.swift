import Crypto
import Foundation
import ISO7816
import NFCPIV
import NFCTestSupport
import Testing
import X509

/// Random and mutated bytes through every parser of card answers: they throw or return nil,
/// never trap (a trap would end the test process).
@Suite struct PIVParserRandomInputTests {
    static let validCertificateObject: [UInt8] = {
        let key = P256.Signing.PrivateKey()
        guard let name = try? DistinguishedName(builder: { CommonName("x") }),
            let certificate = try? Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]), publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: Date(timeIntervalSince1970: 0), notValidAfter: Date(timeIntervalSince1970: 1), issuer: name, subject: name,
                signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(), issuerPrivateKey: Certificate.PrivateKey(key)),
            let der = try? certificate.derBytes
        else { return [] }
        return PIVCertificateContainer(certificate: der).contents
    }()

    func feed(_ bytes: [UInt8]) -> Int {
        var accepted = 0
        if (try? BERTLV.parseAll(bytes)) != nil { accepted += 1 }
        if (try? PIVApplicationProperties(parsing: bytes)) != nil { accepted += 1 }
        if (try? PIVCHUID(parsing: bytes)) != nil { accepted += 1 }
        if (try? PIVCCC(parsing: bytes)) != nil { accepted += 1 }
        if (try? PIVDiscoveryObject(parsing: bytes)) != nil { accepted += 1 }
        if (try? PIVCertificateContainer(parsing: bytes)) != nil { accepted += 1 }
        if PIVCertificateSummary(der: bytes) != nil { accepted += 1 }
        return accepted
    }

    @Test func randomBytes() {
        var generator = SeededGenerator(seed: 0x5049_5600)
        var accepted = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...64, using: &generator)
            accepted += feed((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        #expect(accepted > 0)  // some random inputs are well-formed TLV: the parsers were exercised
    }

    @Test func mutatedCertificateObjects() throws {
        var generator = SeededGenerator(seed: 0x5049_5601)
        let valid = Self.validCertificateObject
        #expect(feed(valid) >= 2)
        #expect(PIVCertificateSummary(der: try PIVCertificateContainer(parsing: valid).certificate)?.subject == "CN=x")
        for _ in 0..<3_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
                }
                if bytes.isEmpty { break }
            }
            _ = feed(bytes)
            if let container = try? PIVCertificateContainer(parsing: bytes) { _ = PIVCertificateSummary(der: container.certificate) }
        }
    }
}
