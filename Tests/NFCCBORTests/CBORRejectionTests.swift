import NFCCBOR
import Testing

/// Every malformed or non-canonical input is refused with its reason and offset.
@Suite struct CBORRejectionTests {
    private func expectRejection(
        _ bytes: [UInt8], _ code: CBORError.Code, at offset: Int, decoder: CBORDecoder = CBORDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let value = try decoder.decode(bytes)
            Issue.record("decoded \(value) from \(bytes)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(error.offset == offset, sourceLocation: sourceLocation)
        }
    }

    @Test func truncated() {
        expectRejection([], .truncated, at: 0)
        expectRejection([0x19, 0x01], .truncated, at: 0)
        expectRejection([0x82, 0x01], .truncated, at: 0)
        expectRejection([0x82, 0x01, 0x82], .truncated, at: 2)
        expectRejection([0x44, 0x01, 0x02], .truncated, at: 0)
        expectRejection([0x62, 0x61], .truncated, at: 0)
        expectRejection([0xA1, 0x01], .truncated, at: 0)
        expectRejection([0xA1, 0x01, 0x81], .truncated, at: 2)
        expectRejection([0xFB, 0x00], .truncated, at: 0)
    }

    @Test("every proper prefix of a valid item is truncated")
    func everyPrefixIsTruncated() throws {
        let items: [CBOR] = [
            [1: "packed", 2: .bytes(Array(repeating: 7, count: 40)), 3: ["alg": -7, "sig": .bytes([0x30, 0x44])]],
            .unsigned(UInt64.max), .text("fünf"), [[[1, 2], ["k": .null]], .bool(true)], .float(0.1),
        ]
        for item in items {
            let bytes = item.encoded
            for length in 0..<bytes.count {
                do {
                    _ = try CBOR(decoding: Array(bytes.prefix(length)))
                    Issue.record("a \(length)-byte prefix of \(item) decoded")
                } catch {
                    #expect(error.code == .truncated, "prefix \(length) of \(item)")
                }
            }
            #expect(try CBOR(decoding: bytes) == item)
        }
    }

    @Test func reservedAdditionalInformation() {
        for ai: UInt8 in 28...30 {
            expectRejection([ai], .reservedAdditionalInfo, at: 0)
            expectRejection([0x40 | ai], .reservedAdditionalInfo, at: 0)
            expectRejection([0xE0 | ai], .reservedAdditionalInfo, at: 0)
        }
        expectRejection([0x81, 0x1C], .reservedAdditionalInfo, at: 1)
    }

    @Test func indefiniteLengths() {
        expectRejection([0x5F, 0x41, 0x00, 0xFF], .indefiniteLength, at: 0)
        expectRejection([0x9F, 0x01, 0xFF], .indefiniteLength, at: 0)
        expectRejection([0xBF, 0xFF], .indefiniteLength, at: 0)
        expectRejection([0xFF], .indefiniteLength, at: 0)
    }

    @Test func nonShortestIntegersAndLengths() {
        expectRejection([0x18, 0x17], .nonShortestInteger, at: 0)
        expectRejection([0x19, 0x00, 0xFF], .nonShortestInteger, at: 0)
        expectRejection([0x1A, 0x00, 0x00, 0xFF, 0xFF], .nonShortestInteger, at: 0)
        expectRejection([0x1B, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF], .nonShortestInteger, at: 0)
        expectRejection([0x38, 0x00], .nonShortestInteger, at: 0)
        expectRejection([0x58, 0x01, 0xAA], .nonShortestInteger, at: 0)
        expectRejection([0x82, 0x01, 0x18, 0x01], .nonShortestInteger, at: 2)
    }

    @Test func unsortedAndDuplicateKeys() {
        expectRejection([0xA2, 0x02, 0x00, 0x01, 0x00], .unsortedMapKeys, at: 3)
        // -1 (0x20) after "a" (0x61 0x61): major type 1 must come before 3.
        expectRejection([0xA2, 0x61, 0x61, 0x00, 0x20, 0x00], .unsortedMapKeys, at: 4)
        // Longer text key before a shorter one.
        expectRejection([0xA2, 0x62, 0x61, 0x61, 0x00, 0x61, 0x62, 0x00], .unsortedMapKeys, at: 5)
        expectRejection([0xA2, 0x01, 0x00, 0x01, 0x00], .duplicateMapKey, at: 3)
    }

    @Test func nestingLimit() {
        let deep = [UInt8](repeating: 0x81, count: 5) + [0x00]
        expectRejection(deep, .tooDeep, at: 4, decoder: CBORDecoder(maximumDepth: 4))
        #expect(throws: Never.self) { try CBORDecoder(maximumDepth: 5).decode(deep) }
        let bomb = [UInt8](repeating: 0x81, count: 100_000)
        expectRejection(bomb, .tooDeep, at: 16)
    }

    @Test func invalidUTF8() {
        expectRejection([0x62, 0xC3, 0x28], .invalidUTF8, at: 0)
        expectRejection([0x61, 0xFF], .invalidUTF8, at: 0)
        expectRejection([0x63, 0xED, 0xA0, 0x80], .invalidUTF8, at: 0)  // a UTF-16 surrogate
    }

    @Test func tagsTrailingBytesAndSimpleValues() throws {
        expectRejection([0xC1, 0x00], .tagNotAllowed, at: 0)
        #expect(try CBORDecoder(allowsTags: true).decode([0xC1, 0x00]) == .tagged(1, 0))
        expectRejection([0x01, 0x02], .trailingBytes, at: 1)
        expectRejection([0xF8, 0x10], .invalidSimpleValue, at: 0)
        expectRejection([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], .truncated, at: 0)
    }

    @Test("random bytes never trap: every input decodes or throws a typed error")
    func randomInputs() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...24, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let value = try? CBOR(decoding: bytes) {
                // What was accepted is canonical: it encodes back to the same bytes (floats,
                // which the encoder may widen or narrow, aside).
                if !bytes.contains(where: { (0xF9...0xFB).contains($0) }) {
                    #expect(value.encoded == bytes)
                }
            }
        }
    }
}
