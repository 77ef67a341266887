import BigInt

extension EllipticCurve {
    /// An ECDSA signature of `digest` with the private key d and the per-signature nonce k (SEC 1
    /// v2 §4.1.3): R = k·G, r = x_R mod n, s = k⁻¹(e + r·d) mod n, with e taken from the digest
    /// as ``verifyECDSA(digest:r:s:publicKey:)`` takes it. `nil` when d or k is not in [1, n−1]
    /// or r or s comes out zero (take another nonce). The caller owns the nonce: one used for two
    /// digests gives the private key away. Virtual cards sign with it (their originality
    /// signature); like the rest of this module it is not constant-time.
    public func signECDSA(digest: [UInt8], privateKey d: BigUInt, nonce k: BigUInt) -> (r: BigUInt, s: BigUInt)? {
        guard order > 1, (1..<order).contains(d), (1..<order).contains(k), let inverse = k.inverse(order),
            let x = multiply(generator, by: k).x
        else { return nil }
        let r = x % order
        let s = (digestInteger(digest) % order + r * d % order) % order * inverse % order
        guard r != 0, s != 0 else { return nil }
        return (r, s)
    }

    /// The public key d·G of a private key d.
    public func publicKey(of privateKey: BigUInt) -> ECPoint { multiply(generator, by: privateKey) }
}
