import BigInt
import Crypto
import Foundation
import NFCEllipticCurves
import Synchronization

/// The simulator's stand-in for NXP's originality key. A chip's originality signature is ECDSA on
/// NIST P-224 over its 7-byte UID with no hash, 56 bytes r ‖ s, written at production with NXP's
/// private key (NTAG 424 DNA data sheet NT4H2421Gx, Read_Sig; AN12343, originality check). That
/// key is NXP's alone, so virtual cards sign with this one instead: a test key, public on
/// purpose (docs/ntag424.md), which no verifier should trust for a real chip. `NFCDESFire`'s
/// `OriginalityKey.simulator` is its public key, so a check names a virtual card for what it is.
///
/// NXP's Type 2 chips (NTAG21x, MIFARE Ultralight EV1) sign the same way on secp128r1, 32 bytes
/// r ‖ s (READ_SIG, NTAG213/215/216 data sheet §10.9): the virtual ones use the same
/// definition reduced on that curve (``type2Signature(of:)``, `OriginalityKey.simulatorType2`).
package enum OriginalityTestKey {
    /// The curve.
    static let curve = EllipticCurve.secp224r1

    /// The private key: SHA-256("OpenCoreNFC simulator originality test key") mod n.
    static let privateKey: BigUInt = {
        let digest = Array(SHA256.hash(data: Array("OpenCoreNFC simulator originality test key".utf8)))
        return BigUInt(Data(digest)) % curve.order
    }()

    /// The public key, uncompressed (`04 ‖ x ‖ y`, 57 bytes).
    package static var publicKey: [UInt8] { curve.encode(curve.publicKey(of: privateKey)) }

    /// The 56-byte signature of `uid`. The nonce is SHA-256(d ‖ UID) mod (n − 1) + 1, so a UID
    /// always gets the same signature, as a chip's is fixed at production.
    package static func signature(of uid: [UInt8]) -> [UInt8] { sign(uid, on: curve, privateKey: privateKey) }

    /// The Type 2 chips' curve.
    static let type2Curve = EllipticCurve.secp128r1

    /// The Type 2 private key: the same SHA-256, mod secp128r1's n.
    static let type2PrivateKey: BigUInt = {
        let digest = Array(SHA256.hash(data: Array("OpenCoreNFC simulator originality test key".utf8)))
        return BigUInt(Data(digest)) % type2Curve.order
    }()

    /// The Type 2 public key, uncompressed (`04 ‖ x ‖ y`, 33 bytes).
    package static var type2PublicKey: [UInt8] { type2Curve.encode(type2Curve.publicKey(of: type2PrivateKey)) }

    /// The 32-byte READ_SIG signature of a Type 2 chip's `uid`, made once per UID (tags are made
    /// by the thousand in tearing sweeps, mostly with one UID).
    package static func type2Signature(of uid: [UInt8]) -> [UInt8] {
        if let known = type2Signatures.withLock({ $0[uid] }) { return known }
        let signature = sign(uid, on: type2Curve, privateKey: type2PrivateKey)
        type2Signatures.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[uid] = signature
        }
        return signature
    }

    private static let type2Signatures = Mutex<[[UInt8]: [UInt8]]>([:])

    /// r ‖ s over `uid` (no hash), the nonce SHA-256(d ‖ UID) mod (n − 1) + 1.
    private static func sign(_ uid: [UInt8], on curve: EllipticCurve, privateKey: BigUInt) -> [UInt8] {
        let seed = Array(SHA256.hash(data: curve.fixed(privateKey) + uid))
        let nonce = BigUInt(Data(seed)) % (curve.order - 1) + 1
        guard let (r, s) = curve.signECDSA(digest: uid, privateKey: privateKey, nonce: nonce) else {
            // r or s came out zero: a chance of about 2⁻¹²⁷. A signature that verifies for no
            // key stands in rather than a trap.
            return [UInt8](repeating: 0, count: 2 * curve.fixed(BigUInt(0)).count)
        }
        return curve.fixed(r) + curve.fixed(s)
    }
}
