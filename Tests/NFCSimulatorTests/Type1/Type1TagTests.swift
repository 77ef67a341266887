import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// A Type 1 tag on the bench: commands mutate it, so it lives in a box.
final class Topaz {
    var tag: Type1Tag

    init(_ tag: Type1Tag) {
        self.tag = tag
        self.tag.powerOn()
        _ = self.tag.activate(context: ExchangeContext())
    }

    /// Sends a command written in hex; the answer's bytes, `nil` when the tag stays silent.
    func send(_ hex: String) -> [UInt8]? { tag.respond(to: hexBytes(hex), context: ExchangeContext()).transceivedBytes }
    func answer(_ hex: String) -> TagAnswer { tag.respond(to: hexBytes(hex), context: ExchangeContext()) }
}

@Suite struct Type1TagTests {
    /// The data sheet's example tag: UID and memory all zero, HR0 11h, HR1 48h.
    static func zeroTopaz96() throws -> Topaz {
        Topaz(try Type1Tag(image: Type1Tag.Image(model: .topaz96, memory: HexBytes([UInt8](repeating: 0, count: 120)))))
    }

    /// BCM20203T512 data sheet Table 24, "Communication Examples (UID = 00,00,00,00)": every
    /// command and answer byte for byte, CRC_B included (the tag model works without CRC; the
    /// reader appends and checks it, so the CRC is computed here over what the tag answered).
    @Test func dataSheetCommunicationExample() throws {
        let tag = try Self.zeroTopaz96()
        #expect(tag.tag.parameters == .iso14443A(.init(atqa: 0x0C00, sak: 0x00)))  // REQA → 00 0C
        func exchange(_ command: String, _ commandCRC: String, _ answerCRC: String) -> [UInt8]? {
            #expect(CRC16.crcB.bytes(hexBytes(command)) == hexBytes(commandCRC), "command \(command)")
            guard let answer = tag.send(command) else { return nil }
            #expect(CRC16.crcB.bytes(answer) == hexBytes(answerCRC), "answer to \(command)")
            return answer
        }
        #expect(exchange("78 00 00 00000000", "D0 43", "16 2A") == hexBytes("11 48 00000000"))
        #expect(exchange("00 00 00 00000000", "70 8C", "C5 2D") == hexBytes("11 48") + [UInt8](repeating: 0, count: 120))
        #expect(exchange("01 08 00 00000000", "FD 32", "87 C1") == hexBytes("08 00"))
        #expect(exchange("53 08 12 00000000", "41 D5", "14 F2") == hexBytes("08 12"))
        #expect(exchange("01 08 00 00000000", "FD 32", "14 F2") == hexBytes("08 12"))
        let after = exchange("00 00 00 00000000", "70 8C", "62 07")
        #expect(after == hexBytes("11 48") + [UInt8](repeating: 0, count: 8) + [0x12] + [UInt8](repeating: 0, count: 111))
    }

    @Test func aWrongUIDEchoIsIgnoredAndTheTagStaysReady() {
        let tag = Topaz(Type1Tag(model: .topaz512))
        let uid = Hex.encode(tag.tag.identifier)
        #expect(tag.send("01 08 00 00000000") == nil)
        #expect(tag.send("53 20 AA 00000000") == nil)
        #expect(tag.tag.memory[0x20] == 0x00)
        #expect(tag.send("01 08 00 " + uid) == hexBytes("08 E1"))
        // A frame of the wrong length, or an unknown code, gets no answer either.
        #expect(tag.send("01 08 00 " + uid + "00") == nil)
        #expect(tag.send("7F 08 00 " + uid) == nil)
        #expect(tag.send("78 00 00 00000000") == [0x12, 0x48] + tag.tag.identifier)
    }

    @Test func theChipBarsWritesToTheUIDReservedAndLockedBlocks() {
        let tag = Topaz(Type1Tag(model: .topaz96))
        let uid = Hex.encode(tag.tag.identifier)
        let before = tag.tag.memory
        #expect(tag.send("53 00 FF " + uid) == nil)  // block 00h: the UID
        #expect(tag.send("1A 01 FF " + uid) == nil)
        #expect(tag.send("53 68 FF " + uid) == nil)  // block 0Dh: reserved
        #expect(tag.send("53 72 FF " + uid) == nil)  // WRITE-E never reaches block 0Eh
        #expect(tag.tag.memory == before)
        // WRITE-NE sets OTP and lock bits in block 0Eh, and never clears a bit.
        #expect(tag.send("1A 72 0F " + uid) == hexBytes("72 0F"))
        #expect(tag.send("1A 72 F0 " + uid) == hexBytes("72 FF"))
        #expect(tag.send("1A 18 81 " + uid) == hexBytes("18 81"))
        #expect(tag.send("1A 18 18 " + uid) == hexBytes("18 99"))
        // Lock block 03h (LOCK-0 bit 3): both writes are barred there, the block still reads.
        #expect(tag.send("1A 70 08 " + uid) == hexBytes("70 09"))
        #expect(tag.tag.isLocked(block: 3))
        #expect(tag.send("53 18 00 " + uid) == nil)
        #expect(tag.send("1A 19 FF " + uid) == nil)
        #expect(tag.send("01 18 00 " + uid) == hexBytes("18 99"))
        #expect(tag.send("53 20 42 " + uid) == hexBytes("20 42"))
    }

    @Test func writesTakeTheDataSheetsFrameDelays() throws {
        let tag = try Self.zeroTopaz96()
        let erase = tag.answer("53 08 12 00000000")
        let noErase = tag.answer("1A 09 12 00000000")
        #expect(erase.writesMemory && noErase.writesMemory)
        // Table 14: FDT = 70932/fc (n = 554) and 35988/fc (n = 281) with a last bit 0; the model
        // charges the read delay 1172/fc (n = 9) plus the processing time.
        let fc = AirTimeModel.carrierFrequency
        let eraseFDT = Double(erase.processingTime.components.attoseconds) / 1e9 + AirTimeModel.frameDelayNanoseconds
        let noEraseFDT = Double(noErase.processingTime.components.attoseconds) / 1e9 + AirTimeModel.frameDelayNanoseconds
        #expect(abs(eraseFDT - 70932 / fc * 1e9) < 1)
        #expect(abs(noEraseFDT - 35988 / fc * 1e9) < 1)
    }

    @Test func topaz512BlockCommands() {
        let tag = Topaz(Type1Tag(model: .topaz512))
        let uid = Hex.encode(tag.tag.identifier)
        let zeros = "0000000000000000"
        #expect(tag.send("02 01 " + zeros + uid) == hexBytes("01 E1103F00010 3F230"))
        #expect(tag.send("54 10 0102030405060708 " + uid) == hexBytes("10 0102030405060708"))
        #expect(tag.send("1B 10 8080808080808080 " + uid) == hexBytes("10 8182838485868788"))
        let segment = tag.send("10 10 " + zeros + uid)
        #expect(segment?.count == 129)
        #expect(segment?.first == 0x10)
        #expect(segment.map { Array($0[1..<9]) } == hexBytes("8182838485868788"))
        #expect(tag.send("10 40 " + zeros + uid) == nil)  // segment 4 does not exist
        #expect(tag.send("02 40 " + zeros + uid) == nil)  // nor block 40h
        #expect(tag.send("54 0F " + zeros + uid) == nil)  // WRITE-E8 never reaches block 0Fh
        // LOCK-2 bit 0 (block 0Fh byte 2) locks block 10h.
        #expect(tag.send("1B 0F 0000010000000000 " + uid) == hexBytes("0F 0000010000000000"))
        #expect(tag.tag.isLocked(block: 0x10))
        #expect(tag.send("54 10 " + zeros + uid) == nil)
        #expect(tag.send("54 11 1111111111111111 " + uid) == hexBytes("11 1111111111111111"))
    }

    @Test func topaz96HasNoBlockCommands() {
        let tag = Topaz(Type1Tag(model: .topaz96))
        let uid = Hex.encode(tag.tag.identifier)
        #expect(tag.send("02 01 0000000000000000 " + uid) == nil)
        #expect(tag.send("10 00 0000000000000000 " + uid) == nil)
        #expect(tag.send("01 78 00 " + uid) == nil)  // READ reaches blocks 00h–0Eh only
    }

    @Test func factoryImages() {
        let t512 = Type1Tag(model: .topaz512)
        #expect(t512.block(1) == hexBytes("E1103F00 010 3F230"))
        #expect(t512.block(2) == hexBytes("33020 3F0 02030300"))
        #expect(t512.block(3) == hexBytes("FE00000000000000"))
        #expect(t512.block(0x0E) == hexBytes("01E0000000000000"))
        let t96 = Type1Tag(model: .topaz96)
        #expect(t96.block(1) == hexBytes("E1100E000300FE00"))
        #expect(t96.block(0x0E) == hexBytes("0160000000000000"))
        #expect(t96.memory.count == 120)
        #expect(Type1Tag(model: .topaz96, blank: true).block(1) == [UInt8](repeating: 0, count: 8))
        #expect(VirtualTagKind(of: t96) == .topaz96)
        #expect(VirtualTagKind(of: t512) == .topaz512)
    }

    @Test func imagesRoundTripAndRefuseAWrongSize() throws {
        var tag = Type1Tag(model: .topaz512)
        tag.powerOn()
        _ = tag.activate(context: ExchangeContext())
        _ = tag.respond(to: hexBytes("54 20 0102030405060708") + tag.identifier, context: ExchangeContext())
        let decoded = try TagImageFile.decode(try TagImageFile.encode(tag))
        #expect((decoded as? Type1Tag)?.memory == tag.memory)
        #expect(throws: TagImageError.self) {
            try Type1Tag(image: Type1Tag.Image(model: .topaz512, memory: HexBytes([UInt8](repeating: 0, count: 120))))
        }
    }

    /// READ of one byte: 9 one-byte frames (Table 24: the command, then CRC_B), then the tag's 4
    /// bytes: (10 + 8 × 11) bit periods + 8 RRDD of 28 µs, 1172/fc, (1 + 9 × 4 + 1) bit periods,
    /// 1172/fc ≈ 1.63 ms.
    @Test func airTimeOfACommandTrain() {
        let etu = 128 / AirTimeModel.carrierFrequency * 1e9
        let frameDelay = 1172 / AirTimeModel.carrierFrequency * 1e9
        let expected = 98 * etu + 8 * 28_000 + frameDelay + 38 * etu + frameDelay
        let time = AirTimeModel.duration(of: AirFrame(reader: .type1Command(7), tag: .bytes(2)), technology: .iso14443A, bitRate: .kbps106)
        #expect(abs(Double(time.components.attoseconds) / 1e9 - expected) < 1)
        #expect(Type1Tag.activationFrames.count == 2)
    }
}
