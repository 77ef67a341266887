import NFCSimulator
import NFCTestSupport
import Testing

@Suite struct Type2LockingTests {
    @Test func staticLockBitsMakePagesReadOnly() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(5, "AABBCCDD"))
        // Lock byte 0 bits 4–7: pages 04h–07h.
        #expect(tag.mustWrite(2, "0000F000"))
        #expect(tag.send("A205 01020304").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.page(5) == [0xAA, 0xBB, 0xCC, 0xDD])
        // Still readable.
        #expect(tag.exchange("3005").map { Array($0[0..<4]) } == [0xAA, 0xBB, 0xCC, 0xDD])
        // Page 08h is not locked; lock byte 1 bit 0 locks it.
        #expect(tag.mustWrite(8, "01020304"))
        #expect(tag.mustWrite(2, "00000001"))
        #expect(tag.send("A208 01020304").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.isLocked(8))
        #expect(!tag.isLocked(9))
    }

    @Test func lockBytesAreORed() {
        let tag = Chip(.ultralightEV1MF0UL11)
        #expect(tag.mustWrite(2, "00001000"))
        #expect(tag.mustWrite(2, "00002080"))
        #expect(tag.mustWrite(2, "00000000"))
        #expect(tag.page(2) == [0xF6, 0x48, 0x30, 0x80])
    }

    @Test func blockLockingBitsFreezeTheirLockBits() {
        let tag = Chip(.ntag215)
        // BL9-4 (lock byte 0 bit 1) freezes L4–L9 (byte 0 bits 4–7, byte 1 bits 0–1).
        #expect(tag.mustWrite(2, "00000200"))
        #expect(tag.mustWrite(2, "0000F003"))
        #expect(tag.page(2)[2...3] == [0x02, 0x00])
        #expect(tag.mustWrite(4, "01020304"))
        // L10–L15 are still free until BL15-10 (bit 2) is set.
        #expect(tag.mustWrite(2, "00000004"))
        #expect(tag.isLocked(10))
        #expect(tag.mustWrite(2, "00000400"))
        #expect(tag.mustWrite(2, "000000F8"))
        #expect(tag.page(2)[2...3] == [0x06, 0x04])
        // BL_CC (bit 0) freezes L_CC (bit 3).
        #expect(tag.mustWrite(2, "00000100"))
        #expect(tag.mustWrite(2, "00000800"))
        #expect(!tag.isLocked(3))
    }

    /// NFC Forum Type 2 Tag §6.1 and NTAG21x “Capability Container”: page 03h bits can only be set.
    @Test func capabilityContainerIsOneTimeProgrammable() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(3, "00000000"))
        #expect(tag.page(3) == [0xE1, 0x10, 0x12, 0x00])
        #expect(tag.mustWrite(3, "0000650F"))
        #expect(tag.page(3) == [0xE1, 0x10, 0x77, 0x0F])
        // A blank chip can be formatted once.
        let blank = Chip(.ultralightEV1MF0UL21, blank: true)
        #expect(blank.mustWrite(3, "E1101000"))
        #expect(blank.exchange("3003").map { Array($0[0..<4]) } == [0xE1, 0x10, 0x10, 0x00])
    }

    @Test func lockingTheCapabilityContainer() {
        let tag = Chip(.ntag213)
        #expect(tag.mustWrite(2, "00000800"))
        #expect(tag.send("A203 0000000F").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.page(3) == [0xE1, 0x10, 0x12, 0x00])
    }

    @Test func ntag213DynamicLockBitsLockPairsOfPages() {
        let tag = Chip(.ntag213)
        // Byte 0 bit 0: pages 10h–11h; bit 2: pages 14h–15h.
        #expect(tag.mustWrite(0x28, "05000000"))
        #expect(tag.page(0x28) == [0x05, 0x00, 0x00, 0xBD])
        for page in [0x10, 0x11, 0x14, 0x15] { #expect(tag.isLocked(page)) }
        for page in [0x12, 0x13, 0x16, 0x27] { #expect(!tag.isLocked(page)) }
        #expect(tag.send("A210 01020304").reply == .nak(0x0))
        tag.reactivate()
        #expect(tag.mustWrite(0x12, "01020304"))
        // Byte 1 bit 3: pages 26h–27h, the last user pages.
        #expect(tag.mustWrite(0x28, "00080000"))
        #expect(tag.isLocked(0x27))
        // The dynamic lock page and the configuration have no lock bits.
        #expect(tag.mustWrite(0x28, "FFFF3F00"))
        #expect(tag.mustWrite(0x29, "040000FF"))
    }

    @Test func dynamicBlockLockingBitsFreezeTheirLockBits() {
        let tag = Chip(.ntag213)
        // Byte 2 bit 0 freezes lock bits 0–1 (pages 10h–13h).
        #expect(tag.mustWrite(0x28, "00000100"))
        #expect(tag.mustWrite(0x28, "07000000"))
        #expect(tag.page(0x28) == [0x04, 0x00, 0x01, 0xBD])
        #expect(!tag.isLocked(0x10))
        #expect(tag.isLocked(0x14))
    }

    @Test(arguments: [(Type2Tag.Model.ntag215, 0x80, 0x7F), (.ntag216, 0xE1, 0xD0)])
    func sixteenPagesPerDynamicLockBit(_ model: Type2Tag.Model, _ lastPage: Int, _ unlocked: Int) {
        let tag = Chip(model)
        #expect(tag.mustWrite(model.dynamicLockPage ?? 0, "01000000"))
        #expect(tag.isLocked(0x10))
        #expect(tag.isLocked(0x1F))
        #expect(!tag.isLocked(0x20))
        // The highest lock bit in use covers the last user pages.
        let bit = (lastPage - 16) / 16
        let bytes = bit < 8 ? hex2(1 << bit) + "00" : "00" + hex2(1 << (bit - 8))
        #expect(tag.mustWrite(model.dynamicLockPage ?? 0, bytes + "0000"))
        #expect(tag.isLocked(lastPage))
        #expect(tag.isLocked(model.lastUserPage))
        #expect(!tag.isLocked(unlocked))
    }

    @Test func ultralightEV1MF0UL21DynamicLocks() {
        let tag = Chip(.ultralightEV1MF0UL21)
        // Byte 1 bit 1: pages 22h–23h.
        #expect(tag.mustWrite(0x24, "00020000"))
        #expect(tag.isLocked(0x22))
        #expect(tag.isLocked(0x23))
        #expect(!tag.isLocked(0x21))
        #expect(tag.send("A223 01020304").reply == .nak(0x0))
    }

    @Test func ultralightEV1MF0UL11HasOnlyStaticLocks() {
        let tag = Chip(.ultralightEV1MF0UL11)
        #expect(tag.mustWrite(2, "0000F8FF"))
        for page in 3...15 { #expect(tag.isLocked(page)) }
        for page in 16...19 { #expect(!tag.isLocked(page)) }
        #expect(tag.mustWrite(0x10, "000000FF"))
    }
}
