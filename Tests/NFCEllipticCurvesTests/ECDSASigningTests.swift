import BigInt
import Foundation
import NFCBytes
import NFCEllipticCurves
import Testing

/// ECDSA on NIST P-224 against two published examples: RFC 6979 §A.2.4 (a private key, its
/// public key and the signature of SHA-256("sample") with the nonce k the RFC derives), and
/// the originality check of NXP AN12343 (MIFARE DESFire Light features and hints): a UID, its
/// 56-byte signature and NXP's public key, the UID signed with no hash.
@Suite struct ECDSASigningTests {
    static let curve = EllipticCurve.secp224r1
    static func hex(_ text: String) -> [UInt8] { (try? [UInt8](hex: text)) ?? [] }
    static func integer(_ text: String) -> BigUInt { BigUInt(Data(hex(text))) }

    static let privateKey = integer("F220266E1105BFE3083E03EC7A3A654651F45E37167E88600BF257C1")
    /// SHA-256("sample").
    static let sampleDigest = hex("af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf")

    @Test("RFC 6979 A.2.4: P-224's public key of x, and the SHA-256 \"sample\" signature with its k, byte for byte")
    func rfc6979() throws {
        let publicKey = Self.curve.publicKey(of: Self.privateKey)
        #expect(
            Self.curve.encode(publicKey)
                == [0x04] + Self.hex("00CF08DA5AD719E42707FA431292DEA11244D64FC51610D94B130D6C")
                + Self.hex("EEAB6F3DEBE455E3DBF85416F7030CBD94F34F2D6F232C69F3C1385A"))
        let k = Self.integer("AD3029E0278F80643DE33917CE6908C70A8FF50A411F06E41DEDFCDC")
        let signature = try #require(Self.curve.signECDSA(digest: Self.sampleDigest, privateKey: Self.privateKey, nonce: k))
        #expect(Self.curve.fixed(signature.r) == Self.hex("61AA3DA010E8E8406C656BC477A7A7189895E7E840CDFE8FF42307BA"))
        #expect(Self.curve.fixed(signature.s) == Self.hex("BC814050DAB5D23770879494F9E0A680DC1AF7161991BDE692B10101"))
        #expect(Self.curve.verifyECDSA(digest: Self.sampleDigest, r: signature.r, s: signature.s, publicKey: publicKey))
    }

    @Test("AN12343 originality check: UID 045A115A346180 and its signature verify under the DESFire Light key; another UID does not")
    func nxpOriginalityExample() throws {
        let key = try #require(
            Self.curve.decode(
                Self.hex(
                    "040E98E117AAA36457F43173DC920A8757267F44CE4EC5ADD3C54075571AEBBF7B942A9774A1D94AD02572427E5AE0A2DD36591B1FB34FCF3D")))
        let signature = try #require(
            EllipticCurve.splitPlainSignature(
                Self.hex(
                    "1CA298FC3F0F04A329254AC0DF7A3EB8E756C076CD1BAAF47B8BBA6DCD78BCC64DFD3E80E679D9A663CAE9E4D4C2C77023077CC549CE4A61")))
        let uid = Self.hex("045A115A346180")
        #expect(Self.curve.verifyECDSA(digest: uid, r: signature.r, s: signature.s, publicKey: key))
        #expect(!Self.curve.verifyECDSA(digest: Self.hex("045A115A346181"), r: signature.r, s: signature.s, publicKey: key))
    }

    /// Real tags' READ_SIG answers as proxmark3's `tools/recover_pk.py` carries them in its self
    /// test: ECDSA on secp128r1 over the 7-byte UID as a big-endian integer, no hash, r ‖ s.
    @Test(
        "secp128r1: NTAG21x and Ultralight EV1 signatures of real tags verify under NXP's keys; another UID or key does not",
        arguments: [
            (
                "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61", "04E10CDA993C80",
                "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"
            ),
            (
                "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61", "04DB0BDA993C80",
                "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"
            ),
            (
                "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8", "04C1285A373080",
                "CEA2EB0B3C95D0844A95B824A7553703B3702378033BF0987899DB70151A19E7"
            ),
        ])
    func type2OriginalitySignatures(key: String, uid: String, signature: String) throws {
        let curve = EllipticCurve.secp128r1
        let publicKey = try #require(curve.decode(Self.hex(key)))
        let (r, s) = try #require(EllipticCurve.splitPlainSignature(Self.hex(signature)))
        var other = Self.hex(uid)
        other[6] ^= 0x01
        #expect(curve.verifyECDSA(digest: Self.hex(uid), r: r, s: s, publicKey: publicKey))
        #expect(!curve.verifyECDSA(digest: other, r: r, s: s, publicKey: publicKey))
        let otherKey =
            key.hasPrefix("04494E")
            ? "0490933BDCD6E99B4E255E3DA55389A827564E11718E017292FAF23226A96614B8"
            : "04494E1A386D3D3CFE3DC10E5DE68A499B1C202DB5B132393E89ED19FE5BE8BC61"
        #expect(!curve.verifyECDSA(digest: Self.hex(uid), r: r, s: s, publicKey: try #require(curve.decode(Self.hex(otherKey)))))
    }

    @Test("signing refuses a private key or nonce outside [1, n-1]; a signature verifies and a changed digest does not")
    func refusalsAndRoundTrip() throws {
        let n = Self.curve.order
        #expect(Self.curve.signECDSA(digest: Self.sampleDigest, privateKey: 0, nonce: 5) == nil)
        #expect(Self.curve.signECDSA(digest: Self.sampleDigest, privateKey: n, nonce: 5) == nil)
        #expect(Self.curve.signECDSA(digest: Self.sampleDigest, privateKey: 7, nonce: 0) == nil)
        #expect(Self.curve.signECDSA(digest: Self.sampleDigest, privateKey: 7, nonce: n) == nil)
        let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let signature = try #require(Self.curve.signECDSA(digest: uid, privateKey: 7, nonce: n - 2))
        let publicKey = Self.curve.publicKey(of: 7)
        #expect(Self.curve.verifyECDSA(digest: uid, r: signature.r, s: signature.s, publicKey: publicKey))
        #expect(!Self.curve.verifyECDSA(digest: uid.reversed(), r: signature.r, s: signature.s, publicKey: publicKey))
    }
}
