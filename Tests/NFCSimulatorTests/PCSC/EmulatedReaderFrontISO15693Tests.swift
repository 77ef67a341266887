import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// FF CA / FF B0 / FF D6 / FF C2 on ISO/IEC 15693 tags: an ICODE SLIX2 (80 blocks) and an
/// ST25DV16K (512 blocks, extended commands past block 255).
@Suite("Emulated reader: ISO/IEC 15693")
struct EmulatedReaderFrontISO15693Tests {
    typealias S = PCSCTestSupport

    @Test("GET DATA gives the UID least significant byte first", arguments: [VirtualTagKind.slix2, .iso15693_2k])
    func uid(kind: VirtualTagKind) throws {
        var front = try S.front(kind)
        let uid = front.tag.identifier
        #expect(uid.first == 0xE0)
        #expect(front.send("FF CA 00 00 00") == uid.reversed() + [0x90, 0x00])
        #expect(front.send("FF CA 01 00 00") == [0x6A, 0x81])
    }

    @Test("SLIX2: one block, several blocks, the end of memory")
    func slix2Read() throws {
        var front = try S.front(.slix2)
        let tag = try #require(front.tag as? ISO15693Tag)
        #expect(front.send("FF B0 00 00 00") == hexBytes("E1 40 27 01 90 00"), "the capability container")
        #expect(front.send("FF B0 00 00 04") == hexBytes("E1 40 27 01 90 00"))
        #expect(front.send("FF B0 00 00 10") == (0..<4).flatMap { tag.block($0) ?? [] } + [0x90, 0x00])
        // Blocks 78 and 79 exist, 80 and 81 do not: what there is, and 62 82.
        #expect(front.send("FF B0 00 4E 10") == (78..<80).flatMap { tag.block($0) ?? [] } + [0x62, 0x82])
        #expect(front.send("FF B0 00 50 00") == [0x6A, 0x82])
        #expect(front.send("FF B0 01 00 00") == [0x6A, 0x82], "no extended commands, no block 256")
        #expect(front.send("FF B0 00 00 06") == [0x67, 0x00], "not whole blocks")
        #expect(front.send("FF B0 00 00") == [0x67, 0x00])
        // All of memory in one extended READ BINARY.
        let all = front.send("FF B0 00 00 00 01 40")
        #expect(all == tag.memory + [0x90, 0x00])
        let more = front.send("FF B0 00 00 00 FF FC")
        #expect(more == tag.memory + [0x62, 0x82])
    }

    @Test("SLIX2: UPDATE BINARY writes one block")
    func slix2Write() throws {
        var front = try S.front(.slix2)
        #expect(front.send("FF D6 00 01 04 AA BB CC DD") == [0x90, 0x00])
        #expect(front.lastCommandWroteMemory)
        #expect(try #require(front.tag as? ISO15693Tag).block(1) == [0xAA, 0xBB, 0xCC, 0xDD])
        #expect(front.send("FF B0 00 01 00") == hexBytes("AA BB CC DD 90 00"))
        #expect(!front.lastCommandWroteMemory)
        #expect(front.send("FF D6 00 50 04 01 02 03 04") == [0x6A, 0x82])
        #expect(front.send("FF D6 01 00 04 01 02 03 04") == [0x6A, 0x82])
        #expect(front.send("FF D6 00 01 08 01 02 03 04 05 06 07 08") == [0x67, 0x00])
        #expect(!front.lastCommandWroteMemory)
    }

    @Test("SLIX2: a locked block refuses a write with 63 00")
    func slix2Locked() throws {
        var front = try S.front(.slix2)
        let uid = Array(front.tag.identifier.reversed())
        // Lock Block 2 through a transparent exchange (ISO/IEC 15693-3 §10.4.3).
        let lock = front.respond(to: S.transceive([0x22, 0x22] + uid + [0x02]))
        #expect(lock == S.exchanged([0x00]))
        #expect(front.lastCommandWroteMemory)
        #expect(front.send("FF D6 00 02 04 01 02 03 04") == [0x63, 0x00])
    }

    @Test("ST25DV16K: blocks above 255 through the extended commands")
    func st25Extended() throws {
        var front = try S.front(.iso15693_2k)
        #expect(front.send("FF D6 01 2C 04 11 22 33 44") == [0x90, 0x00], "block 300")
        #expect(front.lastCommandWroteMemory)
        let tag = try #require(front.tag as? ISO15693Tag)
        #expect(tag.block(300) == [0x11, 0x22, 0x33, 0x44])
        #expect(tag.block(44) != [0x11, 0x22, 0x33, 0x44], "not block 300 mod 256")
        #expect(front.send("FF B0 01 2C 00") == hexBytes("11 22 33 44 90 00"))
        #expect(front.send("FF B0 01 2C 08") == hexBytes("11 22 33 44 00 00 00 00 90 00"))
        #expect(front.send("FF D6 01 FF 04 55 66 77 88") == [0x90, 0x00], "block 511, the last")
        #expect(front.send("FF B0 01 FF 08") == hexBytes("55 66 77 88 62 82"), "block 512 does not exist")
        #expect(front.send("FF B0 02 00 00") == [0x6A, 0x82])
        #expect(front.send("FF D6 02 00 04 01 02 03 04") == [0x6A, 0x82])
        #expect(front.send("FF B0 FF FF 00") == [0x6A, 0x82])
    }

    @Test("ST25DV16K: a read across block 255 and all 2 KB at once")
    func st25Across() throws {
        var front = try S.front(.iso15693_2k)
        for block in 254...257 {
            let bytes = [UInt8(block >> 8), UInt8(block & 0xFF), 0xA5, 0x5A]
            #expect(front.respond(to: [0xFF, 0xD6, UInt8(block >> 8), UInt8(block & 0xFF), 0x04] + bytes) == [0x90, 0x00])
        }
        let across = front.send("FF B0 00 FE 10")
        #expect(across == hexBytes("00 FE A5 5A 00 FF A5 5A 01 00 A5 5A 01 01 A5 5A 90 00"))
        let tag = try #require(front.tag as? ISO15693Tag)
        #expect(front.send("FF B0 00 00 00 08 00") == tag.memory + [0x90, 0x00])
        #expect(front.send("FF B0 00 00 00 00 00") == Array(tag.memory.prefix(4)) + [0x90, 0x00], "Le 0000: one block, as Le 00")
        #expect(front.send("FF B0 01 F0 00 01 00") == Array(tag.memory.suffix(64)) + [0x62, 0x82])
    }

    @Test("Transparent Exchange carries ISO/IEC 15693 requests from the flags byte on")
    func transparent() throws {
        var front = try S.front(.iso15693_2k)
        var copy = try #require(front.tag as? ISO15693Tag)
        let systemInformation: [UInt8] = [0x02, 0x2B]
        let expected = try #require(copy.respond(to: systemInformation, context: ExchangeContext()).transceivedBytes)
        #expect(front.respond(to: S.transceive(systemInformation)) == S.exchanged(expected))
        // Stay Quiet: no answer, then non-addressed requests are ignored but FF B0 still works.
        let uid = Array(front.tag.identifier.reversed())
        #expect(front.respond(to: S.transceive([0x22, 0x02] + uid)) == hexBytes("C0 03 01 64 01 90 00"))
        #expect(front.respond(to: S.transceive([0x02, 0x20, 0x00])) == hexBytes("C0 03 01 64 01 90 00"))
        #expect(S.sw(front.send("FF B0 00 00 00")) == [0x90, 0x00])
    }
}
