import BigInt
import Crypto
import Foundation
import NFCEllipticCurves

/// PACE's integrated mapping on an elliptic curve (ICAO Doc 9303 Part 11 §4.4.3.3.2 and
/// Appendix B.2): the terminal sends a second nonce t in clear, both sides stretch (s, t) with
/// a pseudo-random function built from the block cipher, and the point encoding f_G turns the
/// result into the generator Ĝ. Unlike generic mapping there is no mapping key pair, so the
/// chip's answer to the mapping step is empty.
///
/// This build runs it with AES-128, whose constants c₀ and c₁ (§4.4.3.3.2, k = l = 128) it holds.
package enum IntegratedMapping {
    /// c₀ and c₁ for AES-128 (§4.4.3.3.2).
    static let c0: [UInt8] = [0xA6, 0x68, 0x89, 0x2A, 0x7C, 0x41, 0xE3, 0xCA, 0x73, 0x9F, 0x40, 0xB0, 0x57, 0xD8, 0x59, 0x04]
    static let c1: [UInt8] = [0xA4, 0xE1, 0x36, 0xAC, 0x72, 0x5F, 0x73, 0x8B, 0x01, 0xC1, 0xF6, 0x02, 0x17, 0xC1, 0x88, 0xAD]

    /// R(s, t): k₀ = E(t, s), then for i = 1…n: xᵢ = E(kᵢ₋₁, c₁), kᵢ = E(kᵢ₋₁, c₀); R = x₁ ‖ … ‖ xₙ,
    /// with n = ⌈(log₂ p + 64) / 128⌉ blocks (§4.4.3.3.2, Figure 2).
    /// - Throws: ``EMRTDError`` `.authenticationFailed` when s or t is not one AES block.
    package static func pseudoRandom(nonce s: [UInt8], terminalNonce t: [UInt8], fieldBits: Int) throws(EMRTDError) -> [UInt8] {
        guard s.count == 16, t.count == 16 else {
            throw EMRTDError(.authenticationFailed, "integrated mapping needs 16-byte nonces, got \(s.count) and \(t.count)")
        }
        let blocks = (fieldBits + 64 + 127) / 128
        var key = try encrypt(s, key: t)
        var output: [UInt8] = []
        for _ in 0..<blocks {
            output += try encrypt(c1, key: key)
            key = try encrypt(c0, key: key)
        }
        return output
    }

    /// Ĝ = f_G(R(s, t) mod p).
    /// - Throws: ``EMRTDError`` `.authenticationFailed` when the curve has no point encoding or
    ///   the value is one of the few it cannot map.
    package static func generator(nonce s: [UInt8], terminalNonce t: [UInt8], curve: EllipticCurve) throws(EMRTDError) -> ECPoint {
        let fieldBits = curve.p.bitWidth
        let r = BigUInt(Data(try pseudoRandom(nonce: s, terminalNonce: t, fieldBits: fieldBits))) % curve.p
        guard let point = curve.encodeToPoint(r) else {
            throw EMRTDError(.authenticationFailed, "the integrated mapping's point encoding has no image on \(curve) for this nonce")
        }
        return point
    }

    /// One AES block, ECB: CBC with a zero IV over a single block is the same.
    static func encrypt(_ block: [UInt8], key: [UInt8]) throws(EMRTDError) -> [UInt8] {
        try SecureMessagingCipher.aesCBC(block, key: SymmetricKey(data: key), iv: [UInt8](repeating: 0, count: 16), decrypt: false)
    }
}
