import BigInt
import NFCEllipticCurves

/// Checks NXP originality signatures: ECDSA over the 7-byte UID, no hash, r ‖ s — on NIST P-224,
/// 56 bytes, for ISO-DEP chips (AN12343, originality check, whose worked example the tests
/// assert), on secp128r1, 32 bytes, for Type 2 chips' READ_SIG (NTAG21x, Ultralight EV1; real
/// tags' signatures asserted too). A valid signature
/// shows the UID was written by a chip NXP made — or, under ``OriginalityKey/simulator``, by a
/// virtual card. It does not show the chip is present: a recorded signature replays; pair it
/// with an authentication or SUN message for that.
public enum OriginalitySignature {
    /// The key among `keys` under which `signature` signs `uid`; `nil` when none does (a clone,
    /// a damaged answer, or a family whose key is not listed) or the signature is neither 56
    /// bytes (P-224) nor 32 (secp128r1). Only keys on the signature's curve are tried.
    public static func signer(of signature: [UInt8], uid: [UInt8], among keys: [OriginalityKey] = OriginalityKey.all) -> OriginalityKey? {
        let curve: EllipticCurve
        switch signature.count {
        case 56: curve = .secp224r1
        case 32: curve = .secp128r1
        default: return nil
        }
        guard let (r, s) = EllipticCurve.splitPlainSignature(signature) else { return nil }
        return keys.first { key in
            guard let point = curve.decode(key.publicKey) else { return false }  // a key of the other curve does not decode
            return curve.verifyECDSA(digest: uid, r: r, s: s, publicKey: point)
        }
    }
}
