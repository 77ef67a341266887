import NFCBytes
import NFCDESFire
import NFCTransport
import Testing

@testable import nfc

/// What `nfc ntag424 info` and `nfc desfire info` say about an originality signature: a card's
/// refusal is "not answered", a lost tag is an error and not a refusal, and each verdict's words.
@Suite struct OriginalityVerdictTests {
    static let uid: [UInt8] = [0x04, 0x5A, 0x11, 0x5A, 0x34, 0x61, 0x80]
    /// AN12343's worked example (MIFARE DESFire Light, originality check).
    static let signature =
        (try? [UInt8](
            hex: "1CA298FC3F0F04A329254AC0DF7A3EB8E756C076CD1BAAF47B8BBA6DCD78BCC64DFD3E80E679D9A663CAE9E4D4C2C77023077CC549CE4A61"))
        ?? []

    @Test("a card status is a refusal (nil); a transport error goes on")
    func refusalsAndFailures() async throws {
        let refused = try await OriginalityVerdict.signature {
            throw DESFireError(.illegalCommand, "Read_Sig: 91 1C illegal command code", status: 0x911C)
        }
        #expect(refused == nil)
        await #expect(throws: TransportError.self) {
            _ = try await OriginalityVerdict.signature { throw TransportError(.tagLost, "the tag left the field") }
        }
        await #expect(throws: DESFireError.self, "a malformed answer is not a refusal") {
            _ = try await OriginalityVerdict.signature { throw DESFireError(.malformedResponse, "Read_Sig answered 12 bytes") }
        }
        #expect(try await OriginalityVerdict.signature { Self.signature } == Self.signature)
    }

    @Test("the verdicts: valid under NXP's key, INVALID, UID hidden, not answered")
    func verdicts() {
        #expect(OriginalityVerdict(signature: Self.signature, uid: Self.uid).text == "valid, signed with NXP's MIFARE DESFire Light key")
        var other = Self.uid
        other[6] ^= 1
        #expect(OriginalityVerdict(signature: Self.signature, uid: other).text.hasPrefix("INVALID"))
        #expect(OriginalityVerdict(signature: Self.signature, uid: nil).text.hasPrefix("not checked"))
        #expect(OriginalityVerdict(signature: nil, uid: Self.uid).text.hasPrefix("not answered"))
    }
}
