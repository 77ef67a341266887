import Crypto
import Foundation
import NFCPIV
import Testing

@Suite struct PIVCertificateBuilderTests {
    @Test func builtCertificateReadsBackAndVerifies() throws {
        let key = P256.Signing.PrivateKey()
        let builder = PIVCertificateBuilder(
            commonName: "Ünïcode CN", publicKey: Array(key.publicKey.x963Representation), serialNumber: [0x80, 0x01],
            notBefore: Date(timeIntervalSince1970: 0), notAfter: Date(timeIntervalSince1970: 2_600_000_000)
        )
        let signature = try key.signature(for: builder.tbsCertificate)
        let der = builder.certificate(signature: Array(signature.derRepresentation))
        let summary = try #require(PIVCertificateSummary(der: der))
        #expect(summary.subject == "CN=Ünïcode CN")
        #expect(summary.issuer == summary.subject)
        #expect(summary.serialNumber == [0x00, 0x80, 0x01])  // a leading 00 keeps it positive
        #expect(summary.publicKey == Array(key.publicKey.x963Representation))
        // 1970 is UTCTime, 2052 GeneralizedTime (RFC 5280 §4.1.2.5).
        #expect(der.windowContains([0x17, 0x0D] + Array("700101000000Z".utf8)))
        #expect(der.windowContains([0x18, 0x0F] + Array("20520522".utf8)))
    }

    @Test func objectIdentifiersRoundTrip() throws {
        let arcs: [UInt64] = [1, 2, 840, 10045, 4, 3, 2]
        let encoded = try #require(DER.objectIdentifier(arcs))
        #expect(encoded == [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02])
        #expect(DER.dotted(objectIdentifier: Array(encoded.dropFirst(2))) == "1.2.840.10045.4.3.2")
        #expect(DER.dotted(objectIdentifier: [0x86]) == nil)
        #expect(DER.objectIdentifier([3, 1]) == nil)
    }

    @Test func notACertificate() {
        #expect(PIVCertificateSummary(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
        #expect(PIVCertificateSummary(der: [0x30, 0x83]) == nil)
        #expect(PIVCertificateSummary(der: []) == nil)
    }
}

extension Array where Element == UInt8 {
    func windowContains(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<($0 + needle.count)]) == needle }
    }
}

@Suite struct PIVCertificateTimeTests {
    /// Dates checked against Foundation's Gregorian calendar in UTC.
    @Test(arguments: [Int64(0), 951_782_400, 1_709_164_800, 2_524_607_999, 2_524_608_000, 4_107_542_400, -1, 946_684_799])
    func matchesFoundation(seconds: Int64) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        let year = try #require(c.year)
        let text =
            (year < 2050 && year >= 1950 ? String(format: "%02d", year % 100) : String(format: "%04d", year))
            + String(format: "%02d%02d%02d%02d%02dZ", c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        let builder = PIVCertificateBuilder(commonName: "t", publicKey: [4], serialNumber: [1], notBefore: seconds, notAfter: seconds)
        let tag: [UInt8] = text.count == 13 ? [0x17, 0x0D] : [0x18, 0x0F]  // UTCTime or GeneralizedTime
        #expect(builder.tbsCertificate.windowContains(tag + Array(text.utf8)), "\(seconds): \(text)")
    }
}
