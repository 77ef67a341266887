import Crypto
import Foundation
import ISO7816
import NFCPIV
import NFCTestSupport
import SwiftASN1
import Testing
import X509

/// Certificates through swift-certificates: the summary a status display shows, and the card key
/// that swift-certificates signs with (the card end to end is in PIVSessionTests).
@Suite struct PIVCertificateTests {
    /// A certificate signed by a software key, with a three-RDN subject.
    static func certificate(key: P256.Signing.PrivateKey, serial: [UInt8] = [0x80, 0x01]) throws -> Certificate {
        let subject = try DistinguishedName {
            CountryName("US")
            OrganizationName("Ünïcode Org")
            CommonName("Card holder")
        }
        let issuer = try DistinguishedName { CommonName("Test CA") }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: serial[...]), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 0), notValidAfter: Date(timeIntervalSince1970: 2_600_000_000),
            issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    @Test("The summary: RDNs first to last, issuer, serial as encoded, the EC point")
    func summary() throws {
        let key = P256.Signing.PrivateKey()
        let der = try Self.certificate(key: key).derBytes
        let summary = try #require(PIVCertificateSummary(der: der))
        #expect(summary.subject == "C=US, O=Ünïcode Org, CN=Card holder")
        #expect(summary.issuer == "CN=Test CA")
        #expect(summary.serialNumber == [0x80, 0x01], "the magnitude; DER's sign byte 00 is not part of it")
        #expect(der.contains(0x02) && PIVCertificateSummary.containsSerial(der, [0x02, 0x03, 0x00, 0x80, 0x01]))
        #expect(summary.publicKey == Array(key.publicKey.x963Representation))
    }

    @Test("Bytes that are not a certificate give nil")
    func notACertificate() throws {
        #expect(PIVCertificateSummary(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
        #expect(PIVCertificateSummary(der: [0x30, 0x83]) == nil)
        #expect(PIVCertificateSummary(der: []) == nil)
        let der = try Self.certificate(key: P256.Signing.PrivateKey()).derBytes
        #expect(PIVCertificateSummary(der: der + [0x00]) == nil, "trailing bytes")
        #expect(PIVCertificateSummary(der: Array(der.dropLast())) == nil, "cut short")
    }

    @Test("A slot key signs only asynchronously, with ecdsa-with-SHA256, and cannot be exported")
    func slotKeyLimits() async throws {
        let client = PIVClient(transmitter: ScriptedTransmitter([]))
        let key = PIVSlotSigningKey(client: client, slot: .authentication, publicKey: P256.Signing.PrivateKey().publicKey)
        #expect(throws: PIVError.self) { try key.signSynchronously(bytes: [1, 2, 3], signatureAlgorithm: .ecdsaWithSHA256) }
        await #expect(throws: PIVError.self) { try await key.signAsynchronously(bytes: [1, 2, 3], signatureAlgorithm: .ecdsaWithSHA384) }
        var serializer = DER.Serializer()
        #expect(throws: PIVError.self) { try serializer.serialize(key) }
        #expect(key.supportedSignatureAlgorithms == [.ecdsaWithSHA256])
    }
}

extension PIVCertificateSummary {
    /// True when `der` holds `encoded` (the serial's INTEGER TLV) somewhere.
    static func containsSerial(_ der: [UInt8], _ encoded: [UInt8]) -> Bool {
        (0...(der.count - encoded.count)).contains { Array(der[$0..<($0 + encoded.count)]) == encoded }
    }
}
