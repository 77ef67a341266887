import NFCTransport
import Testing

@Suite struct AnswerToSelectTests {
    @Test func parsesAllInterfaceBytes() throws {
        // TL=06, T0=78 (TA TB TC present, FSCI 8), TA=77 (all rates), TB=81 (FWI 8, SFGI 1), TC=02, one historical byte 80.
        let ats = try AnswerToSelect(bytes: [0x06, 0x78, 0x77, 0x81, 0x02, 0x80])
        #expect(ats.frameSize == 256)
        #expect(ats.maximumBitRate == .kbps848)
        #expect(ats.fwi == 8)
        #expect(ats.supportsCID)
        #expect(ats.historicalBytes == [0x80])
        #expect(ats.bytes == [0x06, 0x78, 0x77, 0x81, 0x02, 0x80])
    }

    /// ISO/IEC 14443-4 §5.2.4: TA(1) lists the divisors the card supports from card to reader
    /// (DS, b7–b5: 848, 424, 212 kbps) and from reader to card (DR, b3–b1). A rate is usable in
    /// both directions only when both lists hold it.
    @Test(
        "the highest rate in both directions is the highest both DS and DR list",
        arguments: [
            (UInt8(0x41), BitRate.kbps106),  // DS 848 only, DR 212 only: nothing in common above 106
            (0x14, .kbps106),  // DS 212, DR 424
            (0x33, .kbps424),  // DS 424 + 212, DR 424 + 212
            (0x73, .kbps424),  // DS all, DR 424 + 212
            (0x11, .kbps212),
            (0x77, .kbps848),
            (0xF7, .kbps848),  // b8 (same rate both ways) does not change the lists
        ])
    func bitRateInBothDirections(ta: UInt8, expected: BitRate) throws {
        let ats = try AnswerToSelect(bytes: [0x03, 0x18, ta])
        #expect(ats.maximumBitRate == expected)
    }

    @Test func defaultsWhenOnlyTL() throws {
        let ats = try AnswerToSelect(bytes: [0x01])
        #expect(ats.frameSize == 32)
        #expect(ats.maximumBitRate == .kbps106)
        #expect(ats.fwi == 4)
    }

    @Test(arguments: [[UInt8](), [0x05, 0x78], [0x03, 0x78, 0x77], [0x02, 0x80]])
    func rejectsMalformed(_ bytes: [UInt8]) {
        #expect(throws: TransportError(.protocolViolation)) { try AnswerToSelect(bytes: bytes) }
    }

    @Test func frameWaitingTime() {
        // FWT = 256·16/fc·2^FWI; FWI 4 → 4.833 ms.
        let ats = AnswerToSelect(tb: 0x40)
        #expect(ats.frameWaitingTime == .nanoseconds(4_833_038))
    }
}
