import NFCPIV
import Testing

@Suite struct BERTLVTests {
    @Test func parsesMultiByteTagsAndLongLengths() throws {
        let value = [UInt8](repeating: 0xAB, count: 300)
        let bytes = BERTLV(tag: 0x5FC102, value: [1, 2]).encoded + BERTLV(tag: 0x53, value: value).encoded
        #expect(Array(bytes.prefix(5)) == [0x5F, 0xC1, 0x02, 0x02, 0x01])
        let objects = try BERTLV.parseAll(bytes)
        #expect(objects.map(\.tag) == [0x5FC102, 0x53])
        #expect(objects[1].value == value)
        #expect(Array(objects[1].encoded.prefix(4)) == [0x53, 0x82, 0x01, 0x2C])
    }

    @Test(arguments: [
        ([0x53, 0x05, 0x01], 2),             // length beyond the data
        ([0x5F], 1),                          // tag cut short
        ([0x53], 1),                          // no length
        ([0x53, 0x84, 0, 0, 0, 1], 1),        // four length bytes
        ([0x53, 0x82, 0x01], 2),              // length bytes cut short
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
