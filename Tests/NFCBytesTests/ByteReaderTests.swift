import NFCBytes
import Testing

@Suite struct ByteReaderTests {
    @Test func readsBigAndLittleEndianIntegers() throws {
        var r = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E])
        #expect(try r.readUInt8() == 0x01)
        #expect(try r.readUInt16() == 0x0203)
        #expect(try r.readUInt16LE() == 0x0504)
        #expect(try r.readUInt24() == 0x060708)
        #expect(try r.readUInt32() == 0x090A0B0C)
        #expect(r.offset == 12)
        #expect(r.remaining == 2)
        #expect(try r.readBytes(2) == [0x0D, 0x0E])
        #expect(r.isAtEnd)
    }

    @Test func truncationNamesOffsetAndShortfall() {
        var r = ByteReader([0xAA, 0xBB, 0xCC])
        #expect(throws: ByteReaderError.truncated(at: 0, needed: 1)) { try r.readUInt32() }
        _ = try? r.readUInt8()
        #expect(throws: ByteReaderError.truncated(at: 1, needed: 3)) { try r.readBytes(5) }
        #expect(r.offset == 1, "a failed read consumes nothing")
        _ = try? r.readUInt16()
        #expect(throws: ByteReaderError.truncated(at: 3, needed: 1)) { try r.readUInt8() }
        #expect(throws: ByteReaderError.truncated(at: 3, needed: 1)) { try r.peekUInt8() }
    }

    @Test func negativeCountIsRejectedNotTrapped() {
        var r = ByteReader([1, 2, 3])
        #expect(throws: ByteReaderError.self) { try r.readSlice(-1) }
    }

    @Test func sliceOffsetsAreThoseOfTheEnclosingBuffer() throws {
        let buffer: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7]
        var r = ByteReader(buffer[4...])
        #expect(r.offset == 4)
        let s = try r.readSlice(2)
        #expect(Array(s) == [4, 5])
        #expect(r.offset == 6)
        #expect(throws: ByteReaderError.truncated(at: 6, needed: 1)) { try r.readBytes(3) }
        #expect(Array(r.readRemaining()) == [6, 7])
    }
}

@Suite struct ByteWriterTests {
    @Test func writesIntegersInBothOrders() {
        var w = ByteWriter(capacity: 16)
        w.write(UInt8(0x01))
        w.write(UInt16(0x0203))
        w.writeLE(UInt16(0x0504))
        w.write(UInt32(0x06070809))
        w.writeLE(UInt32(0x0D0C0B0A))
        w.write(contentsOf: [0xEE, 0xFF])
        w.set(0x99, at: 0)
        #expect(w.bytes == [0x99, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0xEE, 0xFF])
        #expect(w.count == 15)
    }

    @Test func readerReadsWhatWriterWrote() throws {
        var w = ByteWriter()
        for v: UInt32 in [0, 1, 0xFFFF_FFFF, 0x1234_5678] { w.write(v) }
        var r = ByteReader(w.bytes)
        for v: UInt32 in [0, 1, 0xFFFF_FFFF, 0x1234_5678] { #expect(try r.readUInt32() == v) }
    }
}
