import BigInt

extension EllipticCurve {
    /// The point encoding f_G of PACE's integrated mapping (ICAO Doc 9303 Part 11 Appendix B.2,
    /// after Brier et al., "Efficient Indifferentiable Hashing into Ordinary Elliptic Curves",
    /// the simplified SWU map): a field element t becomes a point of the curve, deterministically.
    /// Defined for p ≡ 3 (mod 4) with a ≠ 0 (brainpool and NIST curves); `nil` otherwise, or
    /// for the few t the formulas cannot take (α + α² = 0).
    public func encodeToPoint(_ t: BigUInt) -> ECPoint? {
        guard p % 4 == 3, a != 0, let field else { return nil }
        let t = t % p
        let alpha = (p - (t * t) % p) % p
        let denominator = (alpha + alpha * alpha) % p
        guard denominator != 0, let inverseDenominator = denominator.inverse(p), let inverseA = a.inverse(p) else { return nil }
        // X2 = −b·a⁻¹·(1 + (α + α²)⁻¹)
        let x2 = (p - (b * inverseA % p) * ((1 + inverseDenominator) % p) % p) % p
        let x3 = alpha * x2 % p
        let h2 = (x2 * x2 % p * x2 + a * x2 + b) % p
        let u = t.power(3, modulus: p) * h2 % p
        // A = h2^(p − 1 − (p + 1)/4): A²·h2 = 1 exactly when h2 is a square, and then A·h2 is its root.
        let root = field.integer(field.power(field.element(h2), p - 1 - (p + 1) / 4))
        let point: ECPoint =
            root * root % p * h2 % p == 1
            ? .affine(x: x2, y: root * h2 % p)
            : .affine(x: x3, y: root * u % p)
        return contains(point) ? point : nil
    }
}
