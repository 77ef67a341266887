import Crypto

/// The little DER reading U2F needs (X.690 §8.1): element lengths and the subject public key of
/// an X.509 certificate (RFC 5280 §4.1).
enum DER {
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

    /// The children of the constructed element at `offset`: (start, whole length) each.
    static func children(_ bytes: [UInt8], at offset: Int, field: String) throws(FIDOError) -> [(Int, Int)] {
        let (header, content) = try header(bytes, at: offset, field: field)
        var position = offset + header
        let end = offset + header + content
        guard end <= bytes.count else { throw .malformedResponse(field: field, reason: "DER length beyond the data") }
        var result: [(Int, Int)] = []
        while position < end {
            let length = try elementLength(bytes, at: position, field: field)
            result.append((position, length))
            position += length
        }
        return result
    }

    /// The P-256 key in a certificate's SubjectPublicKeyInfo.
    static func certificatePublicKey(_ certificate: [UInt8]) throws(FIDOError) -> P256.Signing.PublicKey {
        let field = "certificate"
        guard let tbs = try children(certificate, at: 0, field: field).first else {
            throw .malformedResponse(field: field, reason: "empty certificate")
        }
        var fields = try children(certificate, at: tbs.0, field: field)
        if let first = fields.first, certificate[first.0] == 0xA0 { fields.removeFirst() }  // [0] version
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo
        guard fields.count >= 6 else { throw .malformedResponse(field: field, reason: "too few TBSCertificate fields") }
        let spki = Array(certificate[fields[5].0..<(fields[5].0 + fields[5].1)])
        guard let key = try? P256.Signing.PublicKey(derRepresentation: spki) else {
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
