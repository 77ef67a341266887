import ISO7816
import NFCTestSupport
import Testing

@Suite struct CommandAPDUTests {
    /// (hex, cla ins p1 p2, data count, Ne) for every case of ISO/IEC 7816-4 Table 1.
    static let cases: [(String, Int, Int?)] = [
        ("00a40000", 0, nil),  // 1
        ("00b0000010", 0, 16),  // 2S
        ("00b0000000", 0, 256),  // 2S, Le 00 = 256
        ("00a4000c02e103", 2, nil),  // 3S
        ("00a4040007d276000085010100", 7, 256),  // 4S
        ("00b00000000100", 0, 256),  // 2E
        ("00b00000000000", 0, 65_536),  // 2E, 0000 = 65536
        ("00d60000000003010203", 3, nil),  // 3E
        ("00d600000000030102030800", 3, 2048),  // 4E
    ]

    @Test(arguments: cases)
    func parsesEveryCase(hex: String, dataCount: Int, ne: Int?) throws {
        let bytes = hexBytes(hex)
        let apdu = try CommandAPDU(parsing: bytes)
        #expect(apdu.data.count == dataCount)
        #expect(apdu.expectedLength == ne)
        // Re-encoding in the same form gives the same bytes.
        let extended = bytes.count > 4 && bytes[4] == 0 && bytes.count >= 7
        #expect(try apdu.encoded(extended: extended) == bytes)
    }

    @Test(arguments: [
        "", "00", "00a400", "00a4000c03e103", "00a4000c01e1e2e3", "000000000001", "000000000000", "00d6000000000301", "00d6000000000201",
    ])
    func rejectsInconsistentLengths(hex: String) {
        #expect(throws: APDUError.self) { try CommandAPDU(parsing: hexBytes(hex)) }
    }

    @Test func shortFormWhenItFits() throws {
        #expect(try CommandAPDU.readBinary(offset: 0x0102, length: 0xFF).encoded() == hexBytes("00b00102ff"))
        #expect(try CommandAPDU.readBinary(offset: 0, length: 256).encoded() == hexBytes("00b0000000"))
        #expect(try CommandAPDU.select(aid: hexBytes("d2760000850101")).encoded() == hexBytes("00a4040007d276000085010100"))
        #expect(try CommandAPDU.selectFile(id: 0xE103).encoded() == hexBytes("00a4000c02e103"))
    }

    @Test func extendedFormWhenNeeded() throws {
        let read = CommandAPDU.readBinary(offset: 2, length: 4096)
        #expect(read.needsExtendedLength)
        #expect(try read.encoded() == hexBytes("00b00002001000"))
        let write = CommandAPDU.updateBinary(offset: 0, data: Array(repeating: 0xAB, count: 300))
        let bytes = try write.encoded()
        #expect(Array(bytes.prefix(7)) == hexBytes("00d60000 00012c"))
        #expect(bytes.count == 307)
    }

    @Test func rejectsOutOfRangeValues() {
        #expect(throws: APDUError(.valueOutOfRange, "")) { try CommandAPDU(ins: 0xB0, expectedLength: 65_537).encoded() }
        #expect(throws: APDUError(.valueOutOfRange, "")) { try CommandAPDU(ins: 0xB0, expectedLength: 0).encoded() }
        #expect(throws: APDUError(.valueOutOfRange, "")) { try CommandAPDU(ins: 0xD6, data: Array(repeating: 0, count: 65_536)).encoded() }
    }

    @Test func statusWords() throws {
        let response = try ResponseAPDU(parsing: [0x01, 0x02, 0x61, 0x10])
        #expect(response.data == [1, 2])
        #expect(response.statusWord.bytesAvailable == 16)
        #expect(StatusWord(rawValue: 0x6C00).correctLength == 256)
        #expect(StatusWord(rawValue: 0x63C2).retriesLeft == 2)
        #expect(StatusWord.fileNotFound.description == "6A82")
        #expect(throws: APDUError(.truncated, "")) { try ResponseAPDU(parsing: [0x90]) }
    }
}
