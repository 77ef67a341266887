import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Lite-S memory configuration block")
struct FeliCaLiteSMemoryConfigurationTests {
    typealias F = FeliCaCommandFrames
    let idm = FeliCaLiteSTag.defaultIDm

    private func send(_ tag: inout FeliCaLiteSTag, _ frame: [UInt8]) -> [UInt8]? {
        F.reply(tag.respond(to: frame, context: ExchangeContext(bitRate: .kbps212)))
    }

    private func writeMC(_ tag: inout FeliCaLiteSTag, _ mc: [UInt8]) -> [UInt8]? {
        send(&tag, F.write(idm, service: 0x0009, block: 0x88, data: mc))
    }

    private var ok: [UInt8] { [0x09] + idm + [0x00, 0x00] }

    @Test("The factory MC lets everything be written and leaves NDEF off")
    func factory() {
        let blank = FeliCaLiteSTag()
        #expect(blank.memoryConfigurationBlock == [0xFF, 0xFF, 0xFF, 0x00, 0x07] + [UInt8](repeating: 0, count: 11))
        #expect(FeliCaLiteSTag(formatting: .ndef).memoryConfigurationBlock[3] == 0x01)
    }

    @Test("Clearing a bit of MC_SP_REG_ALL_RW makes the block read-only for good")
    func readOnlyUserBlock() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 3, data: F.filled(0x33))) == ok)
        var mc = tag.memoryConfigurationBlock
        mc[0] = 0xF7  // S_PAD3 read-only
        #expect(writeMC(&tag, mc) == ok)
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 3, data: F.filled(0x44))) == F.status(0x09, idm, 0x01, 0xA8))
        #expect(tag.storedBlock(3) == F.filled(0x33))
        // Still readable through 000B, no longer through the read/write service.
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [3])) == [0x07] + idm + [0x00, 0x00, 0x01] + F.filled(0x33))
        #expect(send(&tag, F.read(idm, service: 0x0009, blocks: [2, 3])) == F.status(0x07, idm, 0x02, 0xA8))
        // Setting the bit again does not undo the lock.
        mc[0] = 0xFF
        #expect(writeMC(&tag, mc) == ok)
        #expect(tag.memoryConfigurationBlock[0] == 0xF7)
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 4, data: F.filled(0x44))) == ok)
    }

    @Test("Clearing bit 15 freezes the permission bits")
    func permissionBitsFrozen() {
        var tag = FeliCaLiteSTag()
        var mc = tag.memoryConfigurationBlock
        mc[1] = 0x7F
        #expect(writeMC(&tag, mc) == ok)
        mc[0] = 0x00
        mc[6] = 0x01
        #expect(writeMC(&tag, mc) == ok)
        #expect(Array(tag.memoryConfigurationBlock.prefix(2)) == [0xFF, 0x7F])
        #expect(tag.memoryConfigurationBlock[6] == 0x00)
    }

    @Test("MC_ALL 00 locks ID, CKV, CK and MC bytes 2–5")
    func systemLock() {
        var tag = FeliCaLiteSTag()
        var mc = tag.memoryConfigurationBlock
        mc[2] = 0x00
        #expect(writeMC(&tag, mc) == ok)
        for block: UInt16 in [0x82, 0x86, 0x87] {
            #expect(send(&tag, F.write(idm, service: 0x0009, block: block, data: F.filled(1))) == F.status(0x09, idm, 0x01, 0xA8))
        }
        mc[2] = 0xFF
        mc[3] = 0x01
        #expect(writeMC(&tag, mc) == ok)
        #expect(tag.memoryConfigurationBlock[2] == 0x00)
        #expect(tag.memoryConfigurationBlock[3] == 0x00)
        #expect(FeliCaCommandFrames.reply(tag.respond(to: F.polling(0x12FC), context: ExchangeContext())) == nil)
    }

    @Test("Writing SYS_OP 01 turns on the 12FC answer")
    func enableNDEF() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.polling(0x12FC)) == nil)
        var mc = tag.memoryConfigurationBlock
        mc[3] = 0x01
        mc[13] = 0xEE  // reserved bytes stay 00
        #expect(writeMC(&tag, mc) == ok)
        #expect(tag.memoryConfigurationBlock[13] == 0x00)
        #expect(send(&tag, F.polling(0x12FC, requestCode: 0x01))?.suffix(2) == [0x12, 0xFC])
    }

    @Test("Restricted blocks answer B1 with the element's bit; MAC-only blocks refuse plain writes")
    func restrictions() {
        var tag = FeliCaLiteSTag()
        var mc = tag.memoryConfigurationBlock
        mc[6] = 0x04  // read of S_PAD2 needs authentication
        mc[8] = 0x02  // write of S_PAD1 needs authentication
        mc[10] = 0x01  // write of S_PAD0 needs a MAC
        #expect(writeMC(&tag, mc) == ok)
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [0, 1, 2])) == F.status(0x07, idm, 0x04, 0xB1))
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 1, data: F.filled(1))) == F.status(0x09, idm, 0x01, 0xB1))
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 0, data: F.filled(1))) == F.status(0x09, idm, 0x01, 0xA8))
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 3, data: F.filled(1))) == ok)
    }

    @Test("MAC_A cannot be read without a session: B2 at its bit")
    func macA() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [0x82, 0x91])) == F.status(0x07, idm, 0x02, 0xB2))
    }
}
