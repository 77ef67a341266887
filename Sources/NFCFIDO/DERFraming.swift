import Crypto
import X509

/// The one piece of DER framing U2F needs that a certificate parser does not give: where the
/// attestation certificate ends in a registration answer, which continues with the signature
/// (FIDO U2F Raw Message Formats §4.3; lengths per X.690 §8.1.3).
enum DERFraming {
    /// The header and content length of the element at `offset`.
    static func header(_ bytes: [UInt8], at offset: Int, field: String) throws(FIDOError) -> (headerLength: Int, contentLength: Int) {
        guard offset + 1 < bytes.count else { throw .malformedResponse(field: field, reason: "truncated DER header") }
        let first = bytes[offset + 1]
        if first < 0x80 { return (2, Int(first)) }
        let count = Int(first & 0x7F)
        guard (1...3).contains(count), offset + 1 + count < bytes.count else {
            throw .malformedResponse(field: field, reason: "unsupported DER length form \(first)")
        }
        var length = 0
        for index in 0..<count { length = length << 8 | Int(bytes[offset + 2 + index]) }
        return (2 + count, length)
    }

    /// The whole length (header + content) of the element at `offset`, checked against the input.
    static func elementLength(_ bytes: [UInt8], at offset: Int, field: String) throws(FIDOError) -> Int {
        let (header, content) = try header(bytes, at: offset, field: field)
        guard offset + header + content <= bytes.count else { throw .malformedResponse(field: field, reason: "DER length beyond the data") }
        return header + content
    }
}

/// Attestation certificates, read by swift-certificates (RFC 5280 §4.1).
enum AttestationCertificate {
    /// The P-256 key in a DER certificate's subjectPublicKeyInfo.
    /// - Throws: `.malformedResponse` (field `certificate`) when the bytes are not a certificate
    ///   swift-certificates accepts, or its key is not a P-256 key.
    static func publicKey(_ der: [UInt8]) throws(FIDOError) -> P256.Signing.PublicKey {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            throw .malformedResponse(field: "certificate", reason: "not an X.509 certificate (\(error))")
        }
        guard let key = P256.Signing.PublicKey(certificate.publicKey) else {
            throw .malformedResponse(field: "certificate.subjectPublicKeyInfo", reason: "not a P-256 key")
        }
        return key
    }
}

/// ECDSA P-256 with SHA-256 (COSE -7) signature checks.
public enum ES256 {
    /// Verifies a DER (X9.62) signature.
    public static func verify(signature: [UInt8], message: [UInt8], key: P256.Signing.PublicKey, what: String) throws(FIDOError) {
        guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            key.isValidSignature(parsed, for: message)
        else { throw .verificationFailed(what) }
    }
}
