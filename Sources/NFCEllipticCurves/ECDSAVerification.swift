import BigInt
import Foundation

extension EllipticCurve {
    /// Whether (`r`, `s`) is an ECDSA signature of `digest` under `publicKey` (SEC 1 v2
    /// §4.1.4): with e the digest's leftmost bits (as many as the order has), u₁ = e·s⁻¹ and
    /// u₂ = r·s⁻¹ mod n, the signature holds when the x-coordinate of u₁·G + u₂·Q is r mod n.
    /// Active authentication signs this way on whatever curve the chip's DG15 names (ICAO Doc
    /// 9303 Part 11 §6.1), which is why it is here and not only in swift-crypto's P-256.
    public func verifyECDSA(digest: [UInt8], r: BigUInt, s: BigUInt, publicKey: ECPoint) -> Bool {
        // With cofactor 1 a point on the curve has the order n; other curves also check n·Q = O.
        guard order > 1, (1..<order).contains(r), (1..<order).contains(s), publicKey != .infinity, contains(publicKey),
            cofactor == 1 || multiply(publicKey, by: order) == .infinity, let inverse = s.inverse(order)
        else { return false }
        let u1 = digestInteger(digest) % order * inverse % order
        let u2 = r * inverse % order
        let sum = multiplyAndAdd(generator, u1, publicKey, u2)
        guard let x = sum.x else { return false }
        return x % order == r
    }

    /// The integer e of a digest (SEC 1 v2 §4.1.3 step 5): its leftmost bits, as many as the
    /// order has. A digest shorter than the order is taken whole, as NXP's originality signature
    /// takes the 7-byte UID with no hash (AN12343, originality check).
    func digestInteger(_ digest: [UInt8]) -> BigUInt {
        var e = BigUInt(Data(digest))
        let orderBits = order.bitWidth
        if digest.count * 8 > orderBits { e >>= digest.count * 8 - orderBits }
        return e
    }

    /// An ECDSA signature in the plain format of BSI TR-03111 §5.2.1 (r ‖ s, each as long as
    /// the order), split; `nil` when its length is odd.
    public static func splitPlainSignature(_ bytes: [UInt8]) -> (r: BigUInt, s: BigUInt)? {
        guard !bytes.isEmpty, bytes.count % 2 == 0 else { return nil }
        let half = bytes.count / 2
        return (BigUInt(Data(bytes[..<half])), BigUInt(Data(bytes[half...])))
    }
}
