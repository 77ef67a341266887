import ISO7816
import Testing

@Suite struct BERTLVTests {
    /// X.690 §8.1.3: the short form holds lengths up to 127; from 128 on the long form, `81 xx`
    /// up to 255, `82 xx xx` up to 65,535.
    @Test(
        "length forms at their boundaries",
        arguments: [
            (127, [UInt8(0x7F)]), (128, [0x81, 0x80]), (255, [0x81, 0xFF]), (256, [0x82, 0x01, 0x00]), (65_535, [0x82, 0xFF, 0xFF]),
            (65_536, [0x83, 0x01, 0x00, 0x00]),
        ])
    func lengthForms(length: Int, expected: [UInt8]) throws {
        #expect(BERTLV.lengthBytes(length) == expected)
        let value = [UInt8](repeating: 0x11, count: length)
        let encoded = BERTLV(tag: 0x53, value: value).encoded
        #expect(Array(encoded.prefix(1 + expected.count)) == [0x53] + expected)
        #expect(try BERTLV.parseAll(encoded).first?.value.count == length)
    }

    @Test func parsesMultiByteTagsAndLongLengths() throws {
        let value = [UInt8](repeating: 0xAB, count: 300)
        let bytes = BERTLV(tag: 0x5FC102, value: [1, 2]).encoded + BERTLV(tag: 0x53, value: value).encoded
        #expect(Array(bytes.prefix(5)) == [0x5F, 0xC1, 0x02, 0x02, 0x01])
        let objects = try BERTLV.parseAll(bytes)
        #expect(objects.map(\.tag) == [0x5FC102, 0x53])
        #expect(objects[1].value == value)
        #expect(Array(objects[1].encoded.prefix(4)) == [0x53, 0x82, 0x01, 0x2C])
    }

    @Test(
        arguments: [
            ([0x53, 0x05, 0x01], 2),  // length beyond the data
            ([0x5F], 1),  // tag cut short
            ([0x53], 1),  // no length
            ([0x53, 0x84, 0, 0, 0, 1], 1),  // four length bytes
            ([0x53, 0x82, 0x01], 2),  // length bytes cut short
            ([0x5F, 0xC1, 0x82, 0x83, 0x01], 0),  // tag longer than three bytes
        ] as [([UInt8], Int)])
    func malformedInputThrowsWithOffset(bytes: [UInt8], offset: Int) {
        #expect(throws: BERTLVError.self) { try BERTLV.parseAll(bytes) }
        do {
            _ = try BERTLV.parseAll(bytes)
        } catch {
            #expect(error.offset == offset)
        }
    }
}
