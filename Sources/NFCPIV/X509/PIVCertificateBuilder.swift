import Foundation

/// Builds a self-signed X.509 v3 certificate for a P-256 key whose signature is made elsewhere
/// (by the card): first ``tbsCertificate``, then ``certificate(signature:)`` (RFC 5280 §4.1;
/// ecdsa-with-SHA256 and id-ecPublicKey/prime256v1 per RFC 5758 §3.2 and RFC 5480 §2).
public struct PIVCertificateBuilder: Sendable {
    /// The subject's (and issuer's) common name.
    public var commonName: String
    /// The uncompressed P-256 point, 65 bytes.
    public var publicKey: [UInt8]
    /// A positive serial number, up to 20 bytes (RFC 5280 §4.1.2.2).
    public var serialNumber: [UInt8]
    public var notBefore: Date
    public var notAfter: Date

    public init(commonName: String, publicKey: [UInt8], serialNumber: [UInt8], notBefore: Date, notAfter: Date) {
        self.commonName = commonName
        self.publicKey = publicKey
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// 1.2.840.10045.4.3.2 ecdsa-with-SHA256, parameters absent (RFC 5758 §3.2).
    static let ecdsaWithSHA256 = DER.sequence(DER.objectIdentifier([1, 2, 840, 10045, 4, 3, 2]) ?? [])

    /// The Name: one RDN with the common name (2.5.4.3).
    var name: [UInt8] {
        DER.sequence(DER.set(DER.sequence(DER.objectIdentifier([2, 5, 4, 3]) ?? [], DER.utf8String(commonName))))
    }

    /// UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5).
    static func time(_ date: Date) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = c.year ?? 1970
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let rest = two(c.month) + two(c.day) + two(c.hour) + two(c.minute) + two(c.second) + "Z"
        if (1950..<2050).contains(year) { return DER.tlv(0x17, Array((two(year % 100) + rest).utf8)) }
        return DER.tlv(0x18, Array((String(format: "%04d", year) + rest).utf8))
    }

    /// The TBSCertificate: v3, serial, ecdsa-with-SHA256, issuer = subject, validity, the P-256
    /// key, and extensions basicConstraints (CA false) and keyUsage (digitalSignature, keyAgreement).
    public var tbsCertificate: [UInt8] {
        let spki = DER.sequence(
            DER.sequence(DER.objectIdentifier([1, 2, 840, 10045, 2, 1]) ?? [], DER.objectIdentifier([1, 2, 840, 10045, 3, 1, 7]) ?? []),
            DER.bitString(publicKey)
        )
        let basicConstraints = DER.sequence(DER.objectIdentifier([2, 5, 29, 19]) ?? [], DER.boolean(true), DER.octetString(DER.sequence()))
        // keyUsage: digitalSignature (bit 0) and keyAgreement (bit 4): 0x88, 3 unused bits.
        let keyUsage = DER.sequence(DER.objectIdentifier([2, 5, 29, 15]) ?? [], DER.boolean(true), DER.octetString(DER.tlv(0x03, [0x03, 0x88])))
        return DER.sequence(
            DER.explicit(0, DER.integer(unsigned: [2])),
            DER.integer(unsigned: serialNumber),
            Self.ecdsaWithSHA256,
            name,
            DER.sequence(Self.time(notBefore), Self.time(notAfter)),
            name,
            spki,
            DER.explicit(3, DER.sequence(basicConstraints, keyUsage))
        )
    }

    /// The Certificate: TBSCertificate, the algorithm again, and the DER ECDSA signature over
    /// SHA-256 of ``tbsCertificate`` as a BIT STRING.
    public func certificate(signature: [UInt8]) -> [UInt8] {
        DER.sequence(tbsCertificate, Self.ecdsaWithSHA256, DER.bitString(signature))
    }
}
