import BigInt
import Crypto
import Foundation
import NFCEllipticCurves

/// The simulator's stand-in for NXP's originality key. A chip's originality signature is ECDSA on
/// NIST P-224 over its 7-byte UID with no hash, 56 bytes r ‖ s, written at production with NXP's
/// private key (NTAG 424 DNA data sheet NT4H2421Gx, Read_Sig; AN12343, originality check). That
/// key is NXP's alone, so virtual cards sign with this one instead: a test key, public on
/// purpose (docs/ntag424.md), which no verifier should trust for a real chip. `NFCDESFire`'s
/// `OriginalityKey.simulator` is its public key, so a check names a virtual card for what it is.
public enum OriginalityTestKey {
    /// The curve.
    static let curve = EllipticCurve.secp224r1

    /// The private key: SHA-256("OpenCoreNFC simulator originality test key") mod n.
    static let privateKey: BigUInt = {
        let digest = Array(SHA256.hash(data: Array("OpenCoreNFC simulator originality test key".utf8)))
        return BigUInt(Data(digest)) % curve.order
    }()

    /// The public key, uncompressed (`04 ‖ x ‖ y`, 57 bytes).
    public static var publicKey: [UInt8] { curve.encode(curve.publicKey(of: privateKey)) }

    /// The 56-byte signature of `uid`. The nonce is SHA-256(d ‖ UID) mod (n − 1) + 1, so a UID
    /// always gets the same signature, as a chip's is fixed at production.
    public static func signature(of uid: [UInt8]) -> [UInt8] {
        let seed = Array(SHA256.hash(data: curve.fixed(privateKey) + uid))
        let nonce = BigUInt(Data(seed)) % (curve.order - 1) + 1
        guard let (r, s) = curve.signECDSA(digest: uid, privateKey: privateKey, nonce: nonce) else {
            // r or s came out zero: a chance of about 2⁻²²³. A signature that verifies for no
            // key stands in rather than a trap.
            return [UInt8](repeating: 0, count: 56)
        }
        return curve.fixed(r) + curve.fixed(s)
    }
}
