import SwiftASN1
import X509

/// What a status display shows of an X.509 certificate: subject, issuer, serial (RFC 5280 §4.1),
/// read by swift-certificates. Reading never traps; bytes that are not a certificate give `nil`.
public struct PIVCertificateSummary: Sendable, Hashable {
    /// The subject as `CN=…, O=…`, first RDN first (as OpenSSL prints it; RFC 4514 strings are in
    /// the reverse order), each value escaped as RFC 4514 §2.4 asks (`\;`, `\,`, `\+`, …).
    public var subject: String
    /// The issuer, in the same form as ``subject``.
    public var issuer: String
    /// The serial number's big-endian magnitude, as OpenSSL prints it: without the `00` that DER
    /// puts before a serial whose top bit is set (X.690 §8.3).
    public var serialNumber: [UInt8]
    /// The subjectPublicKeyInfo's key bytes (the BIT STRING's contents after the unused-bits byte):
    /// for an EC key, the uncompressed point.
    public var publicKey: [UInt8]

    /// Reads a DER certificate; nil when swift-certificates does not accept it as one.
    public init?(der: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: der) else { return nil }
        self.init(certificate)
    }

    /// The summary of a parsed certificate; nil only if its public key cannot be re-encoded.
    public init?(_ certificate: Certificate) {
        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm, subjectPublicKey BIT STRING } (RFC 5280 §4.1).
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate.publicKey)) != nil,
            let spki = try? DER.parse(serializer.serializedBytes),
            case .constructed(let children) = spki.content
        else { return nil }
        var fields = children.makeIterator()
        guard fields.next() != nil, let key = fields.next(), let bits = try? ASN1BitString(derEncoded: key) else { return nil }
        subject = Self.text(certificate.subject)
        issuer = Self.text(certificate.issuer)
        serialNumber = Array(certificate.serialNumber.bytes)
        publicKey = Array(bits.bytes)
    }

    /// A Name's RDNs as `CN=x, O=y`, in their encoded order.
    static func text(_ name: DistinguishedName) -> String {
        name.map { String(describing: $0) }.joined(separator: ", ")
    }
}
