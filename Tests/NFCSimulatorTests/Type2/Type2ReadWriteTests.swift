import NFCSimulator
import NFCTestSupport
import Testing

@Suite struct Type2ReadWriteTests {
    @Test func readReturnsFourPages() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(5, "01020304"))
        #expect(tag.mustWrite(6, "05060708"))
        #expect(tag.exchange("3004") == hexBytes("0300FE00 01020304 05060708 00000000"))
    }

    /// NTAG21x §10.2: "reading from address 2Ah on NTAG213 results in pages 2Ah, 2Bh, 2Ch and 00h".
    @Test func readRollsOverToPageZeroAtTheEndOfMemory() {
        let tag = Chip(.ntag213)
        #expect(tag.exchange("302A") == hexBytes("00050000 00000000 00000000 04E1412C"))
        #expect(tag.exchange("302C") == hexBytes("00000000 04E1412C 124C2880 F6480000"))
    }

    @Test(arguments: Type2Tag.Model.allCases)
    func readOfTheLastPageRollsOverOnEveryModel(_ model: Type2Tag.Model) {
        let tag = Chip(model)
        let last = model.pageCount - 1
        #expect(tag.exchange("30" + hex2(last)) == hexBytes("00000000 04E1412C 124C2880 F6480000"))
        #expect(tag.send("30" + hex2(last + 1)).reply == .nak(0x0))
    }

    @Test func fastReadOfTheWholeNTAG216UserMemory() {
        let tag = Chip(.ntag216)
        let bytes = tag.exchange("3A04E1")
        #expect(bytes?.count == 888)
        #expect(bytes.map { Array($0[0..<4]) } == hexBytes("0300FE00"))
        // And the whole memory, PWD and PACK zeroed.
        let all = tag.exchange("3A00E6")
        #expect(all?.count == 924)
        #expect(all.map { Array($0.suffix(8)) } == [UInt8](repeating: 0, count: 8))
    }

    @Test(arguments: ["3A0504", "3A00E7", "3AE7E7", "3AFF00"])
    func fastReadRefusesBadRanges(_ command: String) {
        let tag = Chip(.ntag216)
        #expect(tag.send(command).reply == .nak(0x0))
        #expect(tag.state == .idle)
    }

    @Test func writeProgramsOnePageAndAcknowledges() {
        let tag = Chip(.ntag215)
        let answer = tag.send("A2 10 DEADBEEF")
        #expect(answer.reply == .ack)
        #expect(answer.writesMemory)
        #expect(answer.processingTime == .microseconds(4100))
        #expect(tag.page(0x10) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(tag.exchange("3010").map { Array($0[0..<4]) } == [0xDE, 0xAD, 0xBE, 0xEF])
    }

    @Test(arguments: ["A200 01020304", "A201 01020304", "A22D 01020304", "A2FF 01020304"])
    func writeRefusesSerialNumberAndMissingPages(_ command: String) {
        let tag = Chip(.ntag213)
        let before = tag.memory
        #expect(tag.send(command).reply == .nak(0x0))
        #expect(tag.memory == before)
    }

    @Test func writeToPageTwoKeepsSerialNumberBytes() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(2, "FFFF0000"))
        #expect(tag.page(2) == [0xF6, 0x48, 0x00, 0x00])
    }

    @Test func compatibilityWriteTakesTheFirstFourOfSixteenBytes() {
        let tag = Chip(.ultralightEV1MF0UL11)
        let first = tag.send("A0 05")
        #expect(first.reply == .ack)
        #expect(!first.writesMemory)
        let second = tag.send("11223344 55667788 99AABBCC DDEEFF00")
        #expect(second.reply == .ack)
        #expect(second.writesMemory)
        #expect(tag.page(5) == [0x11, 0x22, 0x33, 0x44])
        #expect(tag.page(6) == [0, 0, 0, 0])
        // The next frame is an ordinary command again.
        #expect(tag.exchange("3005").map { Array($0[0..<4]) } == [0x11, 0x22, 0x33, 0x44])
    }

    @Test func compatibilityWriteWithShortDataIsRefused() {
        let tag = Chip(.ntag213)
        #expect(tag.send("A0 05").reply == .ack)
        #expect(tag.send("11223344").reply == .nak(0x0))
        #expect(tag.page(5) == [0, 0, 0, 0])
    }

    @Test func compatibilityWriteToALockedPageIsRefusedAtOnce() {
        let tag = Chip(.ntag213)
        #expect(tag.send("A0 01").reply == .nak(0x0))
    }

    @Test func afterANAKTheTagIsMuteUntilReactivated() {
        let tag = Chip(.ntag213)
        #expect(tag.send("3030").reply == .nak(0x0))
        #expect(tag.state == .idle)
        #expect(tag.send("3000").reply == .mute)
        #expect(tag.send("60").reply == .mute)
        tag.reactivate()
        #expect(tag.state == .active)
        #expect(tag.exchange("3000")?.count == 16)
    }

    @Test(arguments: ["30", "300400", "3A04", "A204010203", "60 00", "1B010203", "39", "3C"])
    func knownCommandOfTheWrongLengthIsNAK(_ command: String) {
        let tag = Chip(.ntag213)
        #expect(tag.send(command).reply == .nak(0x0))
        #expect(tag.send("60").reply == .mute)
    }

    /// Any other frame in ACTIVE is an error: back to IDLE without an answer (NTAG21x §8.4.4).
    @Test(arguments: ["31", "FF0102", "A5020100000000", "3E00", "4B", ""])
    func unknownCommandIsMuteAndIdle(_ command: String) {
        let tag = Chip(.ntag216)
        #expect(tag.send(command).reply == .mute)
        #expect(tag.state == .idle)
        #expect(tag.send("60").reply == .mute)
    }

    @Test func haltSilencesTheTagUntilWakeUp() {
        let tag = Chip(.ultralightEV1MF0UL21)
        #expect(tag.send("5000").reply == .mute)
        #expect(tag.state == .halt)
        #expect(tag.send("3000").reply == .mute)
        tag.reactivate()
        #expect(tag.exchange("60") != nil)
    }
}
