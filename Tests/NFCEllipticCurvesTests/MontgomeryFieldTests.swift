import BigInt
import Testing

@testable import NFCEllipticCurves

/// The Montgomery field against plain `BigUInt` arithmetic, on moduli of one to nine words —
/// the widths of toy curves, P-256/brainpoolP256r1, brainpoolP384r1 and P-521 — including
/// moduli whose top word is all ones, where the reduction's carries run furthest.
@Suite struct MontgomeryFieldTests {
    static let moduli: [BigUInt] = [
        97,
        BigUInt("FFFFFFFFFFFFFFC5", radix: 16)!,  // the largest prime below 2⁶⁴
        (BigUInt(1) << 127) - 1,  // a Mersenne prime, top word all ones but one bit
        BigUInt("A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377", radix: 16)!,
        BigUInt("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF", radix: 16)!,
        BigUInt(
            "8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123ACD3A729901D1A71874700133107EC53",
            radix: 16)!,  // brainpoolP384r1's p
        (BigUInt(1) << 521) - 1,  // P-521's p
        (BigUInt(1) << 256) - 1,  // odd, not prime: Montgomery needs only oddness
    ]

    /// Deterministic operands below the modulus, from a linear congruential generator.
    static func operands(below modulus: BigUInt, count: Int) -> [BigUInt] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var result: [BigUInt] = [0, 1, modulus - 1, modulus - 2]
        for _ in 0..<count {
            var value = BigUInt(0)
            for _ in 0..<modulus.words.count + 1 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                value = (value << 64) | BigUInt(state)
            }
            result.append(value % modulus)
        }
        return result
    }

    @Test("products, sums, differences and powers equal BigUInt's, through and back out of Montgomery form", arguments: moduli)
    func agreesWithBigUInt(_ modulus: BigUInt) throws {
        let field = try #require(MontgomeryField(modulus: modulus))
        let values = Self.operands(below: modulus, count: 12)
        for a in values {
            let ea = field.element(a)
            #expect(field.integer(ea) == a)
            for b in values.prefix(6) {
                let eb = field.element(b)
                #expect(field.integer(field.multiply(ea, eb)) == a * b % modulus, "\(a) · \(b) mod \(modulus)")
                #expect(field.integer(field.add(ea, eb)) == (a + b) % modulus)
                #expect(field.integer(field.subtract(ea, eb)) == (a + modulus - b) % modulus)
            }
        }
        let base = values[4]
        let exponent = values[5]
        #expect(field.integer(field.power(field.element(base), exponent)) == base.power(exponent, modulus: modulus))
        #expect(field.element(modulus + 5) == field.element(5))
    }

    @Test("an even modulus, or one below 3, has no Montgomery field", arguments: [BigUInt(0), 1, 2, 96, BigUInt(1) << 200])
    func onlyOddModuli(_ modulus: BigUInt) {
        #expect(MontgomeryField(modulus: modulus) == nil)
    }

    @Test("a curve whose p is even (hostile explicit parameters) gives the point at infinity, and never traps")
    func evenPrimeCurve() {
        let curve = EllipticCurve(name: "even", p: 96, a: 2, b: 3, generator: .affine(x: 3, y: 6), order: 5)
        #expect(curve.multiply(curve.generator, by: 3) == .infinity)
        #expect(curve.multiplyAndAdd(curve.generator, 2, curve.generator, 3) == .infinity)
        #expect(curve.add(curve.generator, curve.generator) == .infinity)
        #expect(curve.encodeToPoint(5) == nil)
    }
}
