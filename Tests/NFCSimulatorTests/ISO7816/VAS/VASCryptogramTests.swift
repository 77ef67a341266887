import Crypto
import NFCSimulator
import Testing

/// Apple's VAS cryptogram against a real phone's answer: the GET VAS DATA response of
/// kormax/apple-vas's `examples/traces/VASONLY.READ.log`, decrypted with the ECDH secret that
/// Proxmark3's public sample merchant key gives (docs/vas-protocol.md §9 records each value).
@Suite struct VASCryptogramTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)  // trap-ok: test literals
            index = next
        }
        return result
    }

    static let passTypeIdentifier = "pass.com.passkit.pksamples.nfcdemo"
    /// The `9F27` value of the trace.
    static let cryptogram = bytes(
        "C0B77375" + "D3F37956D84A538F28AC2A04B38DDC1A67D3647A4DD30ABD736EA1CEA8038388"
            + "692E89DB99E4746D872DE782395640C536E79A75C47A9343DA0A" + "F3937F06EECA7A865C4AD05A2C543AD2")

    @Test func theKeyFromThePublishedSharedSecretOpensThePhonesCryptogram() throws {
        let z = Self.bytes("63813B5EFCC1D744B0888CA05D52DAD97B73731F4C3B3283655B6A3219263911")
        let key = VASCryptogram.key(sharedSecret: z, passTypeIdentifier: Self.passTypeIdentifier)
        #expect(key == Self.bytes("C5A7023FE339EA5A39F0B3FBA2DEFDACD37B639E96028DAF6DBD362C32B291BF"))
        #expect(VASCryptogram.sharedInfo(passTypeIdentifier: Self.passTypeIdentifier).count == 73)
        let contents = try VASCryptogram.decrypt(Self.cryptogram[36...], key: key)
        #expect(contents.timestamp == 0x2A5B_196E)  // 2023-07-09 16:35:58 UTC
        #expect(contents.message == Array("6d1UlFpnOc50iVKRaboDOK".utf8))
    }

    @Test func sealThenOpenWithTheMerchantKey() throws {
        let merchant = P256.KeyAgreement.PrivateKey()
        let sealed = try VASCryptogram.seal(
            .init(timestamp: 710_613_358, message: Array("member 42".utf8)), passTypeIdentifier: "pass.com.example.loyalty",
            merchant: merchant.publicKey, ephemeral: P256.KeyAgreement.PrivateKey())
        #expect(sealed.count == 4 + 32 + 4 + 9 + 16)
        #expect(Array(sealed.prefix(4)) == VASCryptogram.keyIdentifier(of: merchant.publicKey))
        let opened = try VASCryptogram.open(sealed, passTypeIdentifier: "pass.com.example.loyalty", merchant: merchant)
        #expect(opened == .init(timestamp: 710_613_358, message: Array("member 42".utf8)))
        // Another pass type identifier, another key, a flipped bit: refused, never garbage.
        #expect(throws: VASCryptogram.Failure.self) { try VASCryptogram.open(sealed, passTypeIdentifier: "pass.other", merchant: merchant) }
        #expect(throws: VASCryptogram.Failure.self) {
            try VASCryptogram.open(sealed, passTypeIdentifier: "pass.com.example.loyalty", merchant: P256.KeyAgreement.PrivateKey())
        }
        var flipped = sealed
        flipped[40] ^= 0x01
        #expect(throws: VASCryptogram.Failure.self) {
            try VASCryptogram.open(flipped, passTypeIdentifier: "pass.com.example.loyalty", merchant: merchant)
        }
        #expect(throws: VASCryptogram.Failure.self) {
            try VASCryptogram.open(Array(sealed.prefix(50)), passTypeIdentifier: "x", merchant: merchant)
        }
    }
}
