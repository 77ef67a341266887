import ISO7816
import NFCBytes
import NFCEllipticCurves
import NFCeMRTD
import Testing

/// PACE's integrated mapping against ICAO Doc 9303 Part 11 (8th edition) Appendix H.1 — ECDH on
/// brainpoolP256r1 with AES-128 — byte for byte. H.1 gives K_π itself (it is not the KDF of
/// Appendix G's password, whatever the text says) and no APDUs, so the steps are checked one by
/// one: s from z, R(s, t), R_p, Ĝ, the shared secret, the keys and both tokens.
@Suite struct ICAOAppendixHTests {
    static func bytes(_ hex: String) -> [UInt8] { (try? [UInt8](hex: hex)) ?? [] }

    static let s = bytes("2923BE84E16CD6AE529049F1F1BBE9EB")
    static let t = bytes("5DD4CBFC96F5453B130D890A1CDBAE32")

    @Test("H.1: R(s, t) over three AES blocks, and Ĝ = f_G(R_p)")
    func mapping() throws {
        #expect(
            try IntegratedMapping.pseudoRandom(nonce: Self.s, terminalNonce: Self.t, fieldBits: 256)
                == Self.bytes(
                    "E4447E2DFB3586BAC05DDB00156B57FBB2179A3949294C97254189800C517BAA8DA0FF397ED8C445D3E421E4FEB57322"))
        let curve = EllipticCurve.brainpoolP256r1
        let mapped = try IntegratedMapping.generator(nonce: Self.s, terminalNonce: Self.t, curve: curve)
        #expect(
            curve.encode(mapped)
                == Self.bytes(
                    "048E82D31559ED0FDE92A4D0498ADD3C23BABA94FB77691E31E90AEA77FB17D427"
                        + "4C1AE14BD0C3DBAC0C871B7F3608169364437CA30AC243A089D3F266C1E60FAD"))
    }

    @Test("H.1: the shared secret on Ĝ, K_Enc and K_MAC, and the tokens over id-PACE-ECDH-IM-AES-CBC-CMAC-128")
    func keysAndTokens() throws {
        let curve = EllipticCurve.brainpoolP256r1
        let mapped = try IntegratedMapping.generator(nonce: Self.s, terminalNonce: Self.t, curve: curve)
        let terminal = curve.scalar(Self.bytes("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"))
        let chip = curve.scalar(Self.bytes("107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A"))
        let terminalPublic = curve.encode(curve.multiply(mapped, by: terminal))
        let chipPublic = curve.encode(curve.multiply(mapped, by: chip))
        #expect(
            terminalPublic
                == Self.bytes(
                    "0489CBA23FFE96AA18D824627C3E934E54A9FD0B87A95D1471DC1C0ABFDCD640D4"
                        + "6755DE9B7B778280B6BEBD57439ADFEB0E21FD4ED6DF42578C13418A59B34C37"))
        let chipPoint = try #require(curve.decode(chipPublic))
        let shared = try #require(curve.multiply(chipPoint, by: terminal).x)
        let secret = curve.fixed(shared)
        #expect(secret == Self.bytes("4F150FDE1D4F0E38E95017B891BAE17133A0DF45B0D3E18B60BA7BEAFDC2C713"))
        #expect(PACE.derive(secret, counter: 1, length: 16) == Self.bytes("0D3FEB33251A6370893D62AE8DAAF51B"))
        let mac = PACE.derive(secret, counter: 2, length: 16)
        #expect(mac == Self.bytes("B01E89E3D9E8719E586B50B4A7506E0B"))
        let info = PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 4, 2], parameterIdentifier: 13)
        #expect(info.identifierBytes == Self.bytes("04007F00070202040402"))
        #expect(info.mapping == .integrated && PACE.supports(info))
        #expect(try PACE.token(macKey: mac, oid: info.identifierBytes, point: terminalPublic) == Self.bytes("75D4D96E8D5B0308"))
        #expect(try PACE.token(macKey: mac, oid: info.identifierBytes, point: chipPublic) == Self.bytes("450F02B86F6A0909"))
    }

    @Test("nonces that are not one AES block are refused, not sliced")
    func wrongNonceLength() {
        #expect(throws: EMRTDError.self) { try IntegratedMapping.pseudoRandom(nonce: [1, 2, 3], terminalNonce: Self.t, fieldBits: 256) }
    }

    @Test("integrated mapping with AES-192 or AES-256, or DH, is not run by this build")
    func unsupportedVariants() {
        #expect(!PACE.supports(PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 4, 3], parameterIdentifier: 13)))
        #expect(!PACE.supports(PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 3, 2], parameterIdentifier: 0)))
        #expect(!PACE.supports(PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 6, 2], parameterIdentifier: 13)))
    }
}
