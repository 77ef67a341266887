import NFCBytes
import Testing

/// SHA-256 against the examples of FIPS 180-4's appendix (NIST's "SHA-256" example values) and
/// the merchant id of a real phone exchange.
@Suite struct SHA256DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        // The merchant id `9F25` of kormax/apple-vas's VASONLY.READ.log trace (docs/vas-protocol.md §9).
        ("pass.com.passkit.pksamples.nfcdemo", "03b57cdb3eca0984ba9abdc2fb45d86626d87b39d33c5c6dbbc313a6347a3146"),
    ])
    func publishedDigests(message: String, digest: String) {
        #expect(Self.hex(SHA256Digest.hash(Array(message.utf8))) == digest)
    }

    /// Lengths around the padding boundaries (55, 56, 63, 64 bytes) and a million `a`s.
    @Test func paddingBoundariesAndALongMessage() {
        #expect(
            Self.hex(SHA256Digest.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        for count in [55, 56, 63, 64, 65, 119, 120] {
            #expect(SHA256Digest.hash([UInt8](repeating: 0x61, count: count)).count == 32)
        }
        #expect(SHA256Digest.hash([UInt8](repeating: 0x61, count: 55)) != SHA256Digest.hash([UInt8](repeating: 0x61, count: 56)))
    }
}
