import Crypto

/// The U2F attestation certificate: a minimal self-signed X.509 v3 certificate (RFC 5280 §4.1)
/// built here in DER, with no extensions: subject = issuer = `CN=OpenCoreNFC FIDO Attestation`,
/// valid 2024-01-01 to 2049-12-31, ECDSA with SHA-256 over P-256. U2F verifiers read the public
/// key from it; nothing chains to a trusted root, which is honest for an emulated key.
enum FIDOAttestationCertificate {
    static func make(key: P256.Signing.PrivateKey) -> [UInt8] {
        var serial = FIDOAuthenticator.randomBytes(8)
        serial[0] &= 0x7F
        serial[0] |= 0x01  // positive, no leading zero
        let ecdsaWithSHA256 = tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let name = tlv(0x30, tlv(0x31, tlv(0x30, tlv(0x06, [0x55, 0x04, 0x03]) + tlv(0x0C, Array("OpenCoreNFC FIDO Attestation".utf8)))))
        let validity = tlv(0x30, tlv(0x17, Array("240101000000Z".utf8)) + tlv(0x17, Array("491231235959Z".utf8)))
        let tbs = tlv(
            0x30,
            tlv(0xA0, tlv(0x02, [0x02]))  // version v3
                + tlv(0x02, serial) + ecdsaWithSHA256 + name + validity + name
                + Array(key.publicKey.derRepresentation))
        let signature = FIDOAuthenticator.sign(tbs, with: key)
        return tlv(0x30, tbs + ecdsaWithSHA256 + tlv(0x03, [0x00] + signature))
    }

    /// One DER TLV with a definite length (X.690 §8.1.3).
    static func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        let count = value.count
        let length: [UInt8] =
            switch count {
            case 0..<0x80: [UInt8(count)]
            case 0x80...0xFF: [0x81, UInt8(count)]
            default: [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
            }
        return [tag] + length + value
    }
}
