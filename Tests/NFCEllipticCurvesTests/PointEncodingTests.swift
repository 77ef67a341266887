import BigInt
import Foundation
import NFCBytes
import NFCEllipticCurves
import Testing

/// The integrated mapping's point encoding against ICAO Doc 9303 Part 11 Appendix H.1, and ECDSA
/// verification against RFC 6979 Appendix A.2.5.
@Suite struct PointEncodingTests {
    static func hex(_ text: String) -> [UInt8] { (try? [UInt8](hex: text)) ?? [] }

    @Test("H.1: f_G(R_p(s, t)) on brainpoolP256r1 is the appendix's mapped generator Ĝ")
    func appendixH1() throws {
        let curve = EllipticCurve.brainpoolP256r1
        let rp = BigUInt(Data(Self.hex("A2F8FF2DF50E52C6599F386ADCB595D229F6A167ADE2BE5F2C3296ADD5B7430E")))
        let mapped = try #require(curve.encodeToPoint(rp))
        #expect(
            curve.encode(mapped)
                == Self.hex(
                    "048E82D31559ED0FDE92A4D0498ADD3C23BABA94FB77691E31E90AEA77FB17D427"
                        + "4C1AE14BD0C3DBAC0C871B7F3608169364437CA30AC243A089D3F266C1E60FAD"))
        // H.1's key pairs live on Ĝ.
        let chip = curve.multiply(mapped, by: BigUInt(Data(Self.hex("107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A"))))
        #expect(
            curve.encode(chip)
                == Self.hex(
                    "0467F78E5F7F7686082B293E8D087E056916D0F74BC01A5F8957D0DE45691E51E8"
                        + "932B69A962B52A0985AD2C0A271EE6A13A8ADDDCD1A3A994B9DED257F4D22753"))
    }

    @Test("the encoding lands on the curve for any field element, on both curves", arguments: [EllipticCurve.brainpoolP256r1, .secp256r1])
    func alwaysOnTheCurve(_ curve: EllipticCurve) throws {
        for seed in 1...24 {
            let t = BigUInt(seed) * BigUInt(0x1234_5678_9ABC_DEF1) + BigUInt(seed) << 200
            let point = try #require(curve.encodeToPoint(t))
            #expect(curve.contains(point) && point != .infinity)
        }
    }

    @Test("a curve whose p is 1 mod 4 has no encoding here")
    func onlyPrimesThreeModFour() {
        let curve = EllipticCurve(name: "toy", p: 13, a: 1, b: 1, generator: .infinity, order: 1)
        #expect(curve.encodeToPoint(5) == nil)
    }

    @Test("a small explicit curve: its length, order and Shamir's sum (y² = x³ + 2x + 3 over F₉₇, G = (3, 6) of order 5)")
    func smallCurve() {
        let curve = EllipticCurve(name: "toy", p: 97, a: 2, b: 3, generator: .affine(x: 3, y: 6), order: 5, cofactor: 1)
        #expect(curve.byteCount == 1)
        #expect(curve.contains(curve.generator))
        #expect(curve.multiply(curve.generator, by: 5) == .infinity)
        #expect(curve.multiply(curve.generator, by: 6) == curve.generator)
        #expect(curve.multiply(curve.generator, by: 2) == curve.add(curve.generator, curve.generator))
        #expect(curve.multiplyAndAdd(curve.generator, 2, curve.generator, 3) == .infinity)
        #expect(curve.multiplyAndAdd(curve.generator, 1, curve.generator, 3) == curve.multiply(curve.generator, by: 4))
    }

    static let rfc6979Key = ECPoint.affine(
        x: BigUInt(Data(hex("60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"))),
        y: BigUInt(Data(hex("7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"))))
    /// SHA-256("sample").
    static let sampleDigest = hex("af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf")
    static let r = BigUInt(Data(hex("EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716")))
    static let s = BigUInt(Data(hex("F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8")))

    @Test("RFC 6979 A.2.5: P-256, SHA-256, \"sample\" verifies; a changed r, s, digest or key does not")
    func ecdsaRFC6979() {
        let curve = EllipticCurve.secp256r1
        #expect(curve.verifyECDSA(digest: Self.sampleDigest, r: Self.r, s: Self.s, publicKey: Self.rfc6979Key))
        #expect(!curve.verifyECDSA(digest: Self.sampleDigest, r: Self.r + 1, s: Self.s, publicKey: Self.rfc6979Key))
        #expect(!curve.verifyECDSA(digest: Self.sampleDigest, r: Self.r, s: Self.s - 1, publicKey: Self.rfc6979Key))
        var digest = Self.sampleDigest
        digest[31] ^= 1
        #expect(!curve.verifyECDSA(digest: digest, r: Self.r, s: Self.s, publicKey: Self.rfc6979Key))
        #expect(!curve.verifyECDSA(digest: Self.sampleDigest, r: Self.r, s: Self.s, publicKey: curve.generator))
        #expect(!curve.verifyECDSA(digest: Self.sampleDigest, r: 0, s: Self.s, publicKey: Self.rfc6979Key))
        #expect(!curve.verifyECDSA(digest: Self.sampleDigest, r: Self.r, s: curve.order, publicKey: Self.rfc6979Key))
    }

    @Test("the plain signature format splits in halves; an odd length is refused")
    func plainFormat() {
        let split = EllipticCurve.splitPlainSignature([1, 2, 3, 4])
        #expect(split?.r == 0x0102 && split?.s == 0x0304)
        #expect(EllipticCurve.splitPlainSignature([1, 2, 3]) == nil)
        #expect(EllipticCurve.splitPlainSignature([]) == nil)
    }
}
