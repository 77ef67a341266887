import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Lite-S read and write without encryption")
struct FeliCaLiteSReadWriteTests {
    typealias F = FeliCaCommandFrames
    let idm = FeliCaLiteSTag.defaultIDm
    let pmm = FeliCaLiteSTag.defaultPMm

    /// A card whose S_PAD n holds n repeated.
    private func numberedTag() -> FeliCaLiteSTag {
        var tag = FeliCaLiteSTag()
        for block in 0..<14 {
            _ = tag.respond(
                to: F.write(idm, service: 0x0009, block: UInt16(block), data: F.filled(UInt8(block))), context: ExchangeContext())
        }
        return tag
    }

    private func send(_ tag: inout FeliCaLiteSTag, _ frame: [UInt8]) -> [UInt8]? {
        F.reply(tag.respond(to: frame, context: ExchangeContext(bitRate: .kbps212)))
    }

    @Test("Reads of 1 to 4 blocks return 07, IDm, 00 00, the count and the blocks", arguments: 1...4)
    func readBlocks(count: Int) {
        var tag = numberedTag()
        let blocks = (0..<count).map { UInt16(2 + $0) }
        let expected = [0x07] + idm + [0x00, 0x00, UInt8(count)] + blocks.flatMap { F.filled(UInt8($0)) }
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: blocks)) == expected)
        #expect(send(&tag, F.read(idm, service: 0x0009, blocks: blocks)) == expected)
    }

    @Test("Five blocks, or none, is an illegal Number of Block: FF A2")
    func tooManyBlocks() {
        var tag = numberedTag()
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [0, 1, 2, 3, 4])) == F.status(0x07, idm, 0xFF, 0xA2))
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [])) == F.status(0x07, idm, 0xFF, 0xA2))
    }

    @Test("Number of Service other than 1: FF A1, whatever follows")
    func numberOfService() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.read(idm, services: [0x000B, 0x0009], elements: [F.element(0)])) == F.status(0x07, idm, 0xFF, 0xA1))
        // The captured answer of a real card to Number of Service 0.
        #expect(send(&tag, [0x06] + idm + [0x00, 0xF1, 0x01, 0x09, 0x00, 0x01, 0x80, 0x00]) == F.status(0x07, idm, 0xFF, 0xA1))
    }

    @Test("A service other than 000B or 0009: 01 A6")
    func wrongService() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.read(idm, service: 0x1009, blocks: [0])) == F.status(0x07, idm, 0x01, 0xA6))
        #expect(send(&tag, F.read(idm, service: 0x0008, blocks: [0])) == F.status(0x07, idm, 0x01, 0xA6))
    }

    @Test("Element errors carry the element's bit in Status Flag 1")
    func elementErrors() {
        var tag = FeliCaLiteSTag()
        let ok = F.element(0)
        #expect(send(&tag, F.read(idm, services: [0x000B], elements: [F.element(1, order: 1)])) == F.status(0x07, idm, 0x01, 0xA3))
        #expect(
            send(&tag, F.read(idm, services: [0x000B], elements: [ok, F.element(1, accessMode: 1)])) == F.status(0x07, idm, 0x02, 0xA7))
        #expect(send(&tag, F.read(idm, services: [0x000B], elements: [ok, ok, F.element(0x0F)])) == F.status(0x07, idm, 0x04, 0xA8))
        #expect(send(&tag, F.read(idm, services: [0x000B], elements: [ok, ok, ok, F.element(0x89)])) == F.status(0x07, idm, 0x08, 0xA8))
    }

    @Test("3-byte block list elements address the same blocks")
    func threeByteElements() {
        var tag = numberedTag()
        let frame = F.read(idm, services: [0x000B], elements: [F.element(5, threeByte: true), F.element(6)])
        #expect(send(&tag, frame) == [0x07] + idm + [0x00, 0x00, 0x02] + F.filled(5) + F.filled(6))
        let beyond = F.read(idm, services: [0x000B], elements: [F.element(0x0100, threeByte: true)])
        #expect(send(&tag, beyond) == F.status(0x07, idm, 0x01, 0xA8))
    }

    @Test("System blocks: D_ID is IDm and PMm, SYS_C 88B4, SER_C 000B, WCNT counts writes, RC and CK read as zeros")
    func systemBlocks() {
        var tag = numberedTag()
        let reply = send(&tag, F.read(idm, service: 0x000B, blocks: [0x83, 0x85, 0x84, 0x90]))
        let zeros = [UInt8](repeating: 0, count: 16)
        let expected =
            [0x07] + idm + [0x00, 0x00, 0x04] + idm + pmm
            + [0x88, 0xB4] + zeros.prefix(14) + [0x0B, 0x00] + zeros.prefix(14) + [14, 0, 0] + zeros.prefix(13)
        #expect(reply == expected)
        _ = send(&tag, F.write(idm, service: 0x0009, block: 0x87, data: F.filled(0x5A)))
        _ = send(&tag, F.write(idm, service: 0x0009, block: 0x80, data: F.filled(0x33)))
        #expect(send(&tag, F.read(idm, service: 0x000B, blocks: [0x87, 0x80])) == [0x07] + idm + [0x00, 0x00, 0x02] + zeros + zeros)
        #expect(tag.storedBlock(0x87) == F.filled(0x5A))
    }

    @Test("Write one block through 0009: 09, IDm, 00 00; the block and WCNT change")
    func writeBlock() {
        var tag = FeliCaLiteSTag()
        let answer = tag.respond(to: F.write(idm, service: 0x0009, block: 7, data: F.filled(0xC3)), context: ExchangeContext())
        #expect(F.reply(answer) == [0x09] + idm + [0x00, 0x00])
        #expect(answer.writesMemory)
        #expect(tag.storedBlock(7) == F.filled(0xC3))
        #expect(tag.writeCount == 1)
    }

    @Test("Writes through 000B, two plain blocks, read-only system blocks and MAC writes are refused")
    func refusedWrites() {
        var tag = FeliCaLiteSTag()
        #expect(send(&tag, F.write(idm, service: 0x000B, block: 1, data: F.filled(1))) == F.status(0x09, idm, 0x01, 0xA6))
        let two = F.write(idm, services: [0x0009], elements: [F.element(1), F.element(2)], data: [F.filled(1), F.filled(2)])
        #expect(send(&tag, two) == F.status(0x09, idm, 0xFF, 0xA2))
        for block: UInt16 in [0x81, 0x83, 0x84, 0x85, 0x90, 0x91, 0x92, 0xA0] {
            #expect(send(&tag, F.write(idm, service: 0x0009, block: block, data: F.filled(1))) == F.status(0x09, idm, 0x01, 0xA8))
        }
        let withMAC = F.write(idm, services: [0x0009], elements: [F.element(1), F.element(0x91)], data: [F.filled(1), F.filled(0)])
        #expect(send(&tag, withMAC) == F.status(0x09, idm, 0x02, 0xB2))
        #expect(tag.storedBlock(1) == F.filled(0))
        #expect(tag.writeCount == 0)
    }

    @Test("The ID block keeps the IDm in D0–D7")
    func idBlock() {
        var tag = FeliCaLiteSTag()
        _ = send(&tag, F.write(idm, service: 0x0009, block: 0x82, data: F.filled(0x77)))
        #expect(tag.storedBlock(0x82) == idm + [UInt8](repeating: 0x77, count: 8))
    }

    @Test("REG values only decrease")
    func subtractionRegister() {
        var tag = FeliCaLiteSTag()
        let start: [UInt8] = [0x10, 0, 0, 0, 0x20, 0, 0, 0] + [UInt8](repeating: 0xAB, count: 8)
        // From zero nothing can decrease: the first write changes nothing but succeeds.
        #expect(send(&tag, F.write(idm, service: 0x0009, block: 0x0E, data: start)) == [0x09] + idm + [0x00, 0x00])
        #expect(tag.storedBlock(0x0E) == F.filled(0))
        var image = tag.image
        image.register = HexBytes(start)
        var loaded = (try? FeliCaLiteSTag(image: image)) ?? tag
        let lower: [UInt8] = [0x08, 0, 0, 0, 0x30, 0, 0, 0] + F.filled(0xCD).prefix(8)
        _ = send(&loaded, F.write(idm, service: 0x0009, block: 0x0E, data: lower))
        #expect(loaded.storedBlock(0x0E) == [0x08, 0, 0, 0, 0x20, 0, 0, 0] + [UInt8](repeating: 0xAB, count: 8))
    }

    @Test("Commands to another IDm and malformed packets get no answer")
    func silence() {
        var tag = numberedTag()
        var other = idm
        other[7] ^= 0x01
        #expect(send(&tag, F.read(other, service: 0x000B, blocks: [0])) == nil)
        #expect(send(&tag, F.write(other, service: 0x0009, block: 0, data: F.filled(9))) == nil)
        #expect(tag.storedBlock(0) == F.filled(0))
        let read = F.read(idm, service: 0x000B, blocks: [0, 1])
        #expect(send(&tag, Array(read.dropLast())) == nil)
        #expect(send(&tag, read + [0x00]) == nil)
        let write = F.write(idm, service: 0x0009, block: 0, data: F.filled(9))
        #expect(send(&tag, Array(write.dropLast())) == nil)
        #expect(send(&tag, Array(write.prefix(5))) == nil)
        #expect(send(&tag, [0x06] + idm) == nil)
    }

    @Test("Through the field: write, read back, wrong IDm times out")
    func throughField() async throws {
        let harness = try await FieldHarness(FeliCaLiteSTag(formatting: .ndef))
        let write = try await harness.send(F.write(idm, service: 0x0009, block: 1, data: F.filled(0x42)))
        #expect(write == [0x09] + idm + [0x00, 0x00])
        let read = try await harness.send(F.read(idm, service: 0x000B, blocks: [0, 1]))
        let attribute: [UInt8] = [0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0x00, 0x01, 0, 0, 0, 0x00, 0x23]
        #expect(read == [0x07] + idm + [0x00, 0x00, 0x02] + attribute + F.filled(0x42))
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send(F.read([UInt8](repeating: 0, count: 8), service: 0x000B, blocks: [0]))
        }
        let state = await harness.tag(as: FeliCaLiteSTag.self)
        #expect(state?.storedBlock(1) == F.filled(0x42))
    }
}
