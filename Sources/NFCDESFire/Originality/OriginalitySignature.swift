import BigInt
import NFCEllipticCurves

/// Checks NXP originality signatures: ECDSA on NIST P-224 over the 7-byte UID, no hash, 56 bytes
/// r ‖ s (AN12343, originality check, whose worked example the tests assert). A valid signature
/// shows the UID was written by a chip NXP made — or, under ``OriginalityKey/simulator``, by a
/// virtual card. It does not show the chip is present: a recorded signature replays; pair it
/// with an authentication or SUN message for that.
public enum OriginalitySignature {
    /// The key among `keys` under which `signature` signs `uid`; `nil` when none does (a clone,
    /// a damaged answer, or a family whose key is not listed) or the signature is not 56 bytes.
    public static func signer(of signature: [UInt8], uid: [UInt8], among keys: [OriginalityKey] = OriginalityKey.all) -> OriginalityKey? {
        let curve = EllipticCurve.secp224r1
        guard signature.count == 56, let (r, s) = EllipticCurve.splitPlainSignature(signature) else { return nil }
        return keys.first { key in
            guard let point = curve.decode(key.publicKey) else { return false }
            return curve.verifyECDSA(digest: uid, r: r, s: s, publicKey: point)
        }
    }
}
