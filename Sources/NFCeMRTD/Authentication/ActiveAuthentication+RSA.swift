import BigInt
import Foundation

/// RSA active authentication (ICAO Doc 9303 Part 11 §6.1.2): the chip signs with ISO/IEC 9796-2
/// digital signature scheme 1, partial message recovery. The recovered block is
/// `6A ‖ M1 ‖ H ‖ trailer`: M1 is the chip's own nonce, the unrecovered part M2 is the
/// terminal's challenge, H = hash(M1 ‖ M2), and the trailer `BC` means SHA-1 while `xx CC`
/// names the hash (`33` SHA-1, `34` SHA-256, `35` SHA-512, `36` SHA-384; ISO/IEC 10118-3's
/// identifiers).
extension ActiveAuthentication {
    /// The hash a valid ISO/IEC 9796-2 signature of `challenge` under `key` used, or `nil` when
    /// the signature does not verify.
    public static func verifyISO9796(signature: [UInt8], challenge: [UInt8], key: RSAPublicKey) -> SecurityObject.HashAlgorithm? {
        guard signature.count == key.byteCount else { return nil }
        let value = BigUInt(Data(signature))
        guard value > 0, value < key.modulus else { return nil }
        let recovered = value.power(key.exponent, modulus: key.modulus)
        let magnitude = Array(recovered.serialize())
        guard magnitude.count <= key.byteCount else { return nil }
        let block = [UInt8](repeating: 0, count: key.byteCount - magnitude.count) + magnitude
        guard block.count > 2, block[0] == 0x6A, let last = block.last else { return nil }
        let hash: SecurityObject.HashAlgorithm
        let trailer: Int
        switch (last, block[block.count - 2]) {
        case (0xBC, _): (hash, trailer) = (.sha1, 1)
        case (0xCC, 0x33): (hash, trailer) = (.sha1, 2)
        case (0xCC, 0x34): (hash, trailer) = (.sha256, 2)
        case (0xCC, 0x35): (hash, trailer) = (.sha512, 2)
        case (0xCC, 0x36): (hash, trailer) = (.sha384, 2)
        default: return nil
        }
        let digestLength = hash.hash([]).count
        guard block.count > 1 + digestLength + trailer else { return nil }
        let digestStart = block.count - trailer - digestLength
        let nonce = Array(block[1..<digestStart])
        return hash.hash(nonce + challenge) == Array(block[digestStart..<(block.count - trailer)]) ? hash : nil
    }
}
