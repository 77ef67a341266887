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
    /// The validity period in seconds since 1970-01-01 00:00:00 UTC (leap seconds ignored, as POSIX time).
    public var notBefore: Int64
    /// The end of the validity period, in the same POSIX seconds.
    public var notAfter: Int64

    /// A builder with these fields, stored as given (nothing is validated).
    public init(commonName: String, publicKey: [UInt8], serialNumber: [UInt8], notBefore: Int64, notAfter: Int64) {
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

    /// UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5), from POSIX seconds.
    static func time(_ seconds: Int64) -> [UInt8] {
        let (year, month, day) = civilDate(daysSinceEpoch: floorDivide(seconds, 86_400))
        let secondOfDay = Int(seconds - floorDivide(seconds, 86_400) * 86_400)
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let rest =
            digits(month, 2) + digits(day, 2) + digits(secondOfDay / 3600, 2) + digits(secondOfDay / 60 % 60, 2)
            + digits(secondOfDay % 60, 2) + "Z"
        if (1950..<2050).contains(year) { return DER.tlv(0x17, Array((digits(year % 100, 2) + rest).utf8)) }
        return DER.tlv(0x18, Array((digits(year, 4) + rest).utf8))
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (the "days from civil"
    /// algorithm inverted: 400-year eras of 146 097 days, years starting in March).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
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
        let keyUsage = DER.sequence(
            DER.objectIdentifier([2, 5, 29, 15]) ?? [], DER.boolean(true), DER.octetString(DER.tlv(0x03, [0x03, 0x88])))
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
