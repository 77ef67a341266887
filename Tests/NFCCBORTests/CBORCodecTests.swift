import NFCCBOR
import Testing

@Suite struct CBORCodecTests {
    private func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    @Test("integers take their shortest form (RFC 8949 Appendix A values)")
    func shortestIntegers() throws {
        let cases: [(CBOR, String)] = [
            (0, "00"), (23, "17"), (24, "1818"), (255, "18ff"), (256, "190100"), (65_535, "19ffff"),
            (65_536, "1a00010000"), (.unsigned(4_294_967_296), "1b0000000100000000"),
            (-1, "20"), (-24, "37"), (-25, "3818"), (-256, "38ff"), (-257, "390100"),
            (.negative(UInt64.max), "3bffffffffffffffff"),
        ]
        for (value, expected) in cases {
            #expect(value.encoded == hex(expected), "\(value)")
            #expect(try CBOR(decoding: hex(expected)) == value)
        }
    }

    @Test("strings, arrays, simple values and floats round-trip")
    func roundTrips() throws {
        let values: [CBOR] = [
            .bytes([]), .bytes([1, 2, 3]), .text(""), .text("ü水🎉"), .text(String(repeating: "a", count: 300)),
            [1, [2, 3], ["x": .bytes([0xFF])]], .bool(true), .bool(false), .null, .undefined, .simple(16), .simple(255),
            .float(1.5), .float(0.1), .float(-4.0e300),
        ]
        for value in values {
            #expect(try CBOR(decoding: value.encoded) == value, "\(value)")
        }
        #expect(CBOR.text("IETF").encoded == hex("6449455446"))
        #expect(CBOR.array([1, 2, 3]).encoded == hex("83010203"))
        #expect(CBOR.float(1.5).encoded == hex("fa3fc00000"))
        // Half precision decodes (RFC 8949 Appendix A: f93c00 = 1.0, f97bff = 65504.0, f98000 = -0.0).
        #expect(try CBOR(decoding: hex("f93c00")) == .float(1.0))
        #expect(try CBOR(decoding: hex("f97bff")) == .float(65504.0))
        #expect(try CBOR(decoding: hex("f90001")) == .float(5.960464477539063e-8))
    }

    @Test("map keys sort by major type, then length, then bytes (CTAP 2.1 §8)")
    func canonicalMapOrder() throws {
        // A COSE key: 1, 3, -1, -2, -3.
        let cose: CBOR = [1: 2, 3: -7, -1: 1, -2: .bytes([0xAA]), -3: .bytes([0xBB])]
        #expect(cose.encoded == hex("a50102032620012141aa2241bb"))
        // Text keys: shorter first, then bytewise; integers before text.
        let mixed: CBOR = ["up": true, "rk": false, "clientPin": true, "a": 1, 10: 0]
        #expect(mixed.encoded == hex("a50a0061610162726bf4627570f569636c69656e7450696ef5"))
        #expect(try CBOR(decoding: mixed.encoded) == mixed)
        // Where length and bytes disagree — array keys, whose head does not carry their encoded
        // length — the shorter key still sorts first: [1, 2] (82 01 02) before [100000]
        // (81 1A 00 01 86 A0), though 81 < 82.
        let arrays: CBOR = .map([.array([1, 2]): 1, .array([100_000]): 2])
        #expect(arrays.encoded == hex("a2820102018" + "11a000186a002"))
        #expect(CBOR.canonicalOrder(hex("820102"), hex("811a000186a0")))
        #expect(!CBOR.canonicalOrder(hex("811a000186a0"), hex("820102")))
    }

    @Test("accessors read integers, text and maps by key")
    func accessors() {
        let map: CBOR = [1: "packed", "alg": -7, 2: .bytes([1])]
        #expect(map[1]?.textValue == "packed")
        #expect(map["alg"]?.intValue == -7)
        #expect(map[2]?.bytesValue == [1])
        #expect(map[3] == nil)
        #expect(CBOR.unsigned(UInt64.max).intValue == nil)
        #expect(CBOR.int(-9).intValue == -9)
    }
}
