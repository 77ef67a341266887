import NFCSimulator
import NFCTestSupport
import Testing

@Suite struct Type2CounterTests {
    /// NTAG21x §10.6: READ_CNT answers NAK while NFC_CNT_EN is clear.
    @Test func nfcCounterIsOffAsShipped() {
        let tag = Chip(.ntag213)
        #expect(tag.send("3902").reply == .nak(0x0))
        tag.reactivate()
        _ = tag.exchange("3004")
        #expect(tag.counters == [0])
    }

    @Test func nfcCounterCountsTheFirstReadAfterPowerOn() {
        let tag = Chip(.ntag215)
        #expect(tag.mustWrite(0x84, "10050000"))  // NFC_CNT_EN
        tag.powerCycle()
        #expect(tag.exchange("3902") == [0x00, 0x00, 0x00])
        let first = tag.send("3004")
        #expect(first.writesMemory)
        #expect(tag.exchange("3902") == [0x01, 0x00, 0x00])
        #expect(tag.send("3004").writesMemory == false)
        tag.reactivate()
        _ = tag.exchange("3A0404")
        #expect(tag.exchange("3902") == [0x01, 0x00, 0x00])
        tag.powerCycle()
        _ = tag.exchange("3A0404")
        #expect(tag.exchange("3902") == [0x02, 0x00, 0x00])
        // Only address 02h exists.
        #expect(tag.send("3900").reply == .nak(0x0))
    }

    @Test func nfcCounterStopsAtItsMaximum() throws {
        var image = Chip(.ntag213).image
        image.counters = [0xFF_FFFF]
        image.memory.bytes[0x2A * 4] = 0x10
        let tag = Chip(try Type2Tag(image: image))
        tag.powerCycle()
        _ = tag.exchange("3000")
        #expect(tag.exchange("3902") == [0xFF, 0xFF, 0xFF])
    }

    @Test func passwordProtectedNFCCounter() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(0x2A, "18050000"))  // NFC_CNT_EN, NFC_CNT_PWD_PROT
        tag.powerCycle()
        #expect(tag.send("3902").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.exchange("1B FFFFFFFF") == [0x00, 0x00])
        #expect(tag.exchange("3902") == [0x00, 0x00, 0x00])
    }

    @Test func ultralightEV1CountersIncrement() {
        let tag = Chip(.ultralightEV1MF0UL21)
        for counter in 0..<3 { #expect(tag.exchange("390" + String(counter)) == [0, 0, 0]) }
        let increment = tag.send("A5 01 050000 00")
        #expect(increment.reply == .ack)
        #expect(increment.writesMemory)
        #expect(increment.processingTime == .microseconds(4100))
        // The fourth operand byte is ignored.
        #expect(tag.send("A5 01 000001 FF").reply == .ack)
        #expect(tag.exchange("3901") == [0x05, 0x00, 0x01])
        #expect(tag.exchange("3900") == [0x00, 0x00, 0x00])
        #expect(tag.counters == [0, 0x01_0005, 0])
        #expect(tag.exchange("3E01") == [0xBD])
    }

    @Test func ultralightEV1CounterRefusesOverflow() {
        let tag = Chip(.ultralightEV1MF0UL11)
        #expect(tag.send("A5 02 FEFFFF 00").reply == .ack)
        #expect(tag.send("A5 02 020000 00").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.send("A5 02 010000 00").reply == .ack)
        #expect(tag.exchange("3902") == [0xFF, 0xFF, 0xFF])
        #expect(tag.send("A5 02 000000 00").reply == .ack)
    }

    @Test(arguments: ["3903", "A503 01000000", "3E03"])
    func ultralightEV1CounterAddressesStopAtTwo(_ command: String) {
        let tag = Chip(.ultralightEV1MF0UL21)
        #expect(tag.send(command).reply == .nak(0x0))
    }

    @Test func tearingFlagsComeFromTheImage() throws {
        var image = Chip(.ultralightEV1MF0UL21).image
        image.tearingFlags = [0xBD, 0x00, 0xBD]
        let tag = Chip(try Type2Tag(image: image))
        tag.powerCycle()
        #expect(tag.exchange("3E01") == [0x00])
        #expect(tag.exchange("3E02") == [0xBD])
    }

    // MARK: ASCII mirror

    @Test func uidMirror() {
        let tag = Chip(.ntag213)
        // MIRROR_CONF 01b (UID), MIRROR_BYTE 1, STRG_MOD_EN; MIRROR_PAGE 05h.
        #expect(tag.mustWrite(0x29, "540005FF"))
        #expect(tag.mustWrite(0x08, "AABBCCDD"))
        // MIRROR_CONF waits for the next power-on.
        #expect(tag.exchange("3005") == hexBytes("00000000 00000000 00000000 AABBCCDD"))
        tag.powerCycle()
        let uid = Array("04E141124C2880".utf8)
        #expect(tag.exchange("3005") == [0x00] + uid + [0xDD])
        #expect(tag.exchange("3A0508") == [0x00] + uid + [0xDD])
        // The EEPROM is unchanged.
        #expect(tag.page(8) == [0xAA, 0xBB, 0xCC, 0xDD])
    }

    @Test func uidAndCounterMirror() {
        let tag = Chip(.ntag216)
        #expect(tag.mustWrite(0xE3, "C40010FF"))  // UID + counter from page 10h byte 0
        #expect(tag.mustWrite(0xE4, "10050000"))  // NFC_CNT_EN
        tag.powerCycle()
        let text = Array("04E141124C2880x000001".utf8)
        #expect(tag.exchange("3A1015") == text + [0, 0, 0])
    }

    @Test func mirrorThatDoesNotFitIsOff() {
        let tag = Chip(.ntag213)
        // A UID mirror needs 14 bytes; from page 25h byte 0 only 12 are left.
        #expect(tag.mustWrite(0x29, "440025FF"))
        tag.powerCycle()
        #expect(tag.exchange("3A2527") == [UInt8](repeating: 0, count: 12))
    }

    @Test func counterMirrorNeedsTheCounterEnabled() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(0x29, "840006FF"))  // counter mirror at page 06h
        tag.powerCycle()
        #expect(tag.exchange("3A0607") == [UInt8](repeating: 0, count: 8))
        #expect(tag.mustWrite(0x2A, "10050000"))
        tag.powerCycle()
        #expect(tag.exchange("3A0607") == Array("000001".utf8) + [0, 0])
    }
}
