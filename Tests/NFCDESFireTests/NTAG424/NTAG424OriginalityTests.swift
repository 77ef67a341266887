import NFCBytes
import NFCDESFire
import NFCEllipticCurves
import NFCSimulator
import NFCTransport
import Testing

/// Originality signatures: NXP's keys, AN12343's worked example, and the virtual NTAG 424 DNA's
/// Read_Sig (signed with the simulator's test key) through the client, plain and in a session.
@Suite struct NTAG424OriginalityTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    @Test("every listed key is a point on its curve, P-224 or secp128r1 (a mistyped digit would not be)")
    func keysLieOnTheCurve() {
        for key in OriginalityKey.all {
            let onCurve =
                key.publicKey.count == 57
                ? EllipticCurve.secp224r1.decode(key.publicKey) != nil : EllipticCurve.secp128r1.decode(key.publicKey) != nil
            #expect([57, 33].contains(key.publicKey.count) && onCurve, "\(key.name)")
        }
        #expect(OriginalityKey.simulator.publicKey == OriginalityTestKey.publicKey, "the client names the key the simulator signs with")
        #expect(OriginalityKey.nxp.allSatisfy { !$0.isTestKey } && OriginalityKey.simulator.isTestKey)
    }

    @Test("AN12343 originality check: the worked example's signature is the DESFire Light key's; a changed UID or signature is no one's")
    func publishedExample() throws {
        let uid = try [UInt8](hex: "045A115A346180")
        let signature = try [UInt8](
            hex: "1CA298FC3F0F04A329254AC0DF7A3EB8E756C076CD1BAAF47B8BBA6DCD78BCC64DFD3E80E679D9A663CAE9E4D4C2C77023077CC549CE4A61")
        #expect(OriginalitySignature.signer(of: signature, uid: uid) == .desfireLight)
        #expect(OriginalitySignature.signer(of: signature, uid: [0x04, 0x5A, 0x11, 0x5A, 0x34, 0x61, 0x81]) == nil)
        var changed = signature
        changed[55] ^= 0x01
        #expect(OriginalitySignature.signer(of: changed, uid: uid) == nil)
        #expect(OriginalitySignature.signer(of: Array(signature.prefix(55)), uid: uid) == nil, "55 bytes")
        let padded = [0] + signature.prefix(28) + [0] + signature.suffix(28)
        #expect(OriginalitySignature.signer(of: padded, uid: uid) == nil, "58 bytes holding the same r and s: not a chip's answer")
        #expect(OriginalitySignature.signer(of: signature, uid: uid, among: OriginalityKey.nxp.filter { $0 != .desfireLight }) == nil)
    }

    @Test("Read_Sig on the virtual tag: the same 56 bytes plain and in a session, the simulator's key; another UID's do not verify")
    func virtualTag() async throws {
        let tag = NTAG424Tag()
        let card = VirtualNTAG424(tag)
        let client = NTAG424Client(transmitter: card)
        let plain = try await client.originalitySignature()
        #expect(plain.count == 56)
        #expect(OriginalitySignature.signer(of: plain, uid: tag.uid) == .simulator)
        #expect(OriginalitySignature.signer(of: plain, uid: tag.uid, among: OriginalityKey.nxp) == nil, "no NXP key made it")
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        #expect(try await client.originalitySignature() == plain, "enciphered in the session, the same bytes")
        #expect(try await client.cardUID() == tag.uid, "the session goes on")
        let other = NTAG424Tag(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        #expect(OriginalitySignature.signer(of: plain, uid: other.uid) == nil)
        #expect(card.tag.withLock { $0.image.signature } == nil, "a tag made by the simulator keeps no signature: it is derived")
    }

    @Test("an image's own signature is what Read_Sig answers; one of another length is an image error; another address 91 9E")
    func imageSignature() async throws {
        var image = NTAG424Tag().image
        let recorded = try [UInt8](
            hex: "1CA298FC3F0F04A329254AC0DF7A3EB8E756C076CD1BAAF47B8BBA6DCD78BCC64DFD3E80E679D9A663CAE9E4D4C2C77023077CC549CE4A61")
        image.signature = HexBytes(recorded)
        let card = VirtualNTAG424(try NTAG424Tag(image: image))
        #expect(try await NTAG424Client(transmitter: card).originalitySignature() == recorded)
        #expect(try await card.transmit([0x90, 0x3C, 0x00, 0x00, 0x01, 0x01, 0x00]) == [0x91, 0x9E])
        image.signature = HexBytes(Array(recorded.prefix(32)))
        #expect(throws: TagImageError.self) { try NTAG424Tag(image: image) }
    }
}
