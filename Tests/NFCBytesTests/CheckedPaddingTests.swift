import NFCBytes
import Testing

/// `data ‖ CRC ‖ zero padding` split back, the case a CRC without final inversion cannot decide
/// alone included (its last byte zero: data ‖ CRC minus that byte checks as well).
@Suite struct CheckedPaddingTests {
    private func crc(_ bytes: [UInt8]) -> [UInt8] { CRC16.crcA.bytes(bytes) }

    @Test func theLengthDecidesWhereTheCRCAloneCannot() throws {
        // Search data whose CRC_A ends in 00: 6 bytes and 2 of CRC fill one 8-byte block exactly.
        var seed: UInt8 = 0
        var data: [UInt8] = []
        repeat {
            seed &+= 1
            data = [0xA8, 0x2F, 0xD4, 0x78, seed, 0x3A]
        } while crc(data)[1] != 0
        let plain = data + crc(data)
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 6, check: crc) == data)
        // Without the length, the shorter split checks too: the ambiguity the length removes.
        #expect(CheckedPadding.strip(plain, blockSize: 8, check: crc) == Array(data.prefix(5)))
    }

    @Test func paddingAndLengthsAreChecked() {
        let data: [UInt8] = [1, 2, 3]
        let plain = data + crc(data) + [0, 0, 0]
        #expect(CheckedPadding.strip(plain, blockSize: 8, check: crc) == data)
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 3, check: crc) == data)
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 2, check: crc) == nil, "a wrong length")
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 9, check: crc) == nil, "past the end")
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: -1, check: crc) == nil)
        #expect(
            CheckedPadding.strip(plain + [0, 0, 0, 0, 0, 0, 0, 0], blockSize: 8, length: 3, check: crc) == nil, "a whole block of padding")
        var broken = plain
        broken[6] = 1
        #expect(CheckedPadding.strip(broken, blockSize: 8, length: 3, check: crc) == nil, "padding that is not zero")
        #expect(CheckedPadding.strip([], blockSize: 8, check: crc) == nil)
    }

    /// `data ‖ CRC ‖ 80 00…` (SetConfiguration's ATS): the marker, not the zeros, ends the data.
    @Test func anEndMarkerEndsTheData() {
        let ats: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]  // ends in 80 itself
        let plain = ats + crc(ats) + [0x80, 0, 0, 0, 0, 0, 0, 0]
        #expect(CheckedPadding.strip(plain, blockSize: 8, endMarker: true, check: crc) == ats)
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 6, endMarker: true, check: crc) == ats)
        #expect(CheckedPadding.strip(plain, blockSize: 8, length: 5, endMarker: true, check: crc) == nil, "a wrong length")
        #expect(CheckedPadding.strip(plain, blockSize: 8, check: crc) == nil, "without the marker the 80 is not padding")
        #expect(CheckedPadding.strip(ats + crc(ats) + [0, 0], blockSize: 8, endMarker: true, check: crc) == nil, "no marker")
        #expect(
            CheckedPadding.strip(ats + crc(ats) + [0x80] + [UInt8](repeating: 0, count: 8), blockSize: 8, endMarker: true, check: crc)
                == nil, "more than a block of padding")
        var broken = plain
        broken[6] ^= 1
        #expect(CheckedPadding.strip(broken, blockSize: 8, endMarker: true, check: crc) == nil, "a wrong CRC")
        #expect(CheckedPadding.strip([0x80], blockSize: 8, endMarker: true, check: crc) == nil, "no room for the CRC")
    }
}
