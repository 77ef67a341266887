import NFCBytes
import NFCDESFire
import NFCEllipticCurves
import NFCSimulator
import NFCTestSupport
import Testing

/// Type 2 originality signatures (READ_SIG, secp128r1, 32 bytes): real tags' signatures as
/// proxmark3 carries them (`tools/recover_pk.py`'s self test and usage example; an NTAG216 trace)
/// name NXP's NTAG21x and Ultralight EV1 keys, and
/// a virtual tag's names the simulator's Type 2 test key.
@Suite struct Type2OriginalityTests {
    @Test("real NTAG21x and Ultralight EV1 tags: the signer is NXP's key for the family; another UID's is no one's")
    func realTags() {
        for (uid, signature, key) in [
            ("04E10CDA993C80", "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3", OriginalityKey.ntag21x),
            ("04DB0BDA993C80", "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0", .ntag21x),
            ("045869D29C3980", "1FA9FE479435E4B60280F7A2B44293DF9127471B3251BC8942F0941AD71A1755", .ntag21x),
            ("04C1285A373080", "CEA2EB0B3C95D0844A95B824A7553703B3702378033BF0987899DB70151A19E7", .ultralightEV1),
            ("04EE45DAA34084", "EBB6102BFF74B087D18A57A54BC375159A04EA9BC61080B7F4A85AFE1587D73B", .ultralightEV1),
        ] {
            #expect(OriginalitySignature.signer(of: hexBytes(signature), uid: hexBytes(uid)) == key, "\(uid)")
            #expect(OriginalitySignature.signer(of: hexBytes(signature), uid: hexBytes("04000000000000")) == nil)
        }
    }

    @Test("every secp128r1 key is a point on the curve; the client names the key the simulator signs with")
    func keys() {
        for key in [OriginalityKey.ntag21x, .ultralightEV1, .simulatorType2] {
            #expect(key.publicKey.count == 33 && EllipticCurve.secp128r1.decode(key.publicKey) != nil, "\(key.name)")
        }
        #expect(OriginalityKey.simulatorType2.publicKey == OriginalityTestKey.type2PublicKey)
        #expect(OriginalityKey.simulatorType2.isTestKey && !OriginalityKey.ntag21x.isTestKey)
    }

    @Test("a virtual NTAG216 and Ultralight EV1 sign their UIDs with the simulator's Type 2 test key; the signature is the definition's")
    func virtualTags() {
        // Computed in Python from the documented definition (d = SHA-256(…) mod n, nonce
        // SHA-256(d ‖ UID) mod (n − 1) + 1), for the NTAG216's default UID.
        #expect(
            Type2Tag(model: .ntag216, uid: hexBytes("045A7B168C2180")).signature
                == hexBytes("9A03BD6DBDBEEB840BECE948A5BFF3256F3F788F0A5E5C02735119369FD57F14"))
        for model in [Type2Tag.Model.ntag216, .ultralightEV1MF0UL11] {
            let tag = Type2Tag(model: model)
            #expect(tag.signature.count == 32)
            #expect(OriginalitySignature.signer(of: tag.signature, uid: tag.uid) == .simulatorType2, "\(model)")
            #expect(Type2Tag(model: model, uid: tag.uid).signature == tag.signature)
        }
        let copy = Type2Tag(
            model: .ntag216, uid: hexBytes("04E10CDA993C80"),
            signature: hexBytes("8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"))
        #expect(OriginalitySignature.signer(of: copy.signature, uid: copy.uid) == .ntag21x, "a copy keeps the real chip's signature")
    }
}
