import NFCSimulator
import NFCTransport
import Testing

/// The ST25DV16K: 512 blocks, extended (16-bit block number) commands, Write Multiple Blocks of up
/// to 4 blocks, fast reads (ISO/IEC 15693-3:2019 extended commands, ST DS10925).
@Suite("ISO15693 extended commands (ST25DV16K)")
struct ISO15693ExtendedTests {
    typealias S = ISO15693TestSupport

    @Test("Extended Write / Read Single Block reach past block 255 (block number LSB first)")
    func extendedSingleBlock() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x02, 0x31, 0x2C, 0x01, 0xCA, 0xFE, 0xBA, 0xBE]) == [0x00])
        #expect(tag.block(300) == [0xCA, 0xFE, 0xBA, 0xBE])
        #expect(tag.exchange([0x02, 0x30, 0x2C, 0x01]) == [0x00, 0xCA, 0xFE, 0xBA, 0xBE])
        #expect(tag.exchange([0x42, 0x30, 0x2C, 0x01]) == [0x00, 0x00, 0xCA, 0xFE, 0xBA, 0xBE])
        #expect(tag.exchange([0x22, 0x30] + S.st25Wire + [0x2C, 0x01]) == [0x00, 0xCA, 0xFE, 0xBA, 0xBE])
        #expect(tag.exchange([0x02, 0x20, 0xFF]) == [0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test(
        "Extended commands: errors 0x10 past block 511, 0x02 for a one-byte block number",
        arguments: [
            ([UInt8(0x02), 0x30, 0x00, 0x02], [UInt8(0x01), 0x10]), ([0x02, 0x30, 0xFF, 0xFF], [0x01, 0x10]),
            ([0x02, 0x30, 0x00], [0x01, 0x02]), ([0x02, 0x31, 0x00, 0x02, 1, 2, 3, 4], [0x01, 0x10]),
            ([0x02, 0x33, 0xFF, 0x01, 0x01, 0x00], [0x01, 0x10]), ([0x02, 0x33, 0x00, 0x00, 0x00], [0x01, 0x02]),
            ([0x02, 0x3C, 0xFF, 0x01, 0x01, 0x00], [0x01, 0x10]), ([0x02, 0x2C, 0x00], [0x01, 0x02]),
            ([0x02, 0x34, 0xFE, 0x01, 0x02, 0x00] + Array(repeating: 0, count: 12), [0x01, 0x10]),
        ])
    func extendedErrors(frame: [UInt8], expected: [UInt8]) {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange(frame) == expected)
    }

    @Test("Extended Read Multiple Blocks returns the whole 2 KB in one answer")
    func extendedReadMultiple() {
        var tag = ISO15693Tag.formatted(.st25dv16k)
        let all = tag.exchange([0x02, 0x33, 0x00, 0x00, 0xFF, 0x01])
        #expect(all?.count == 1 + 2048)
        #expect(all.map { Array($0.prefix(13)) } == [0x00, 0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF, 0x03, 0x00, 0xFE, 0x00])
        // Read Multiple Blocks with an 8-bit first block still reaches block 256.
        #expect(tag.exchange([0x02, 0x23, 0xFF, 0x01])?.count == 9)
        #expect(tag.exchange([0x42, 0x33, 0xFF, 0x01, 0x00, 0x00]) == [0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test("Write Multiple Blocks takes up to 4 blocks; 5 answer error 0x0F")
    func writeMultiple() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        let data = (1...16).map { UInt8($0) }
        let answer = tag.respond(to: [0x02, 0x34, 0xFC, 0x01, 0x03, 0x00] + data, context: ExchangeContext())
        #expect(answer.transceivedBytes == [0x00])
        #expect(answer.writesMemory)
        // 4 × 5 ms → 67 slots of 4096/fc.
        #expect(abs(S.microseconds(answer.processingTime) - 67 * 4096 / 13.56) < 0.01)
        #expect(tag.block(508) == [1, 2, 3, 4])
        #expect(tag.block(511) == [13, 14, 15, 16])
        #expect(tag.exchange([0x02, 0x24, 0x00, 0x01, 9, 9, 9, 9, 8, 8, 8, 8]) == [0x00])
        #expect(tag.blocks.prefix(2) == [[9, 9, 9, 9], [8, 8, 8, 8]])
        let five = tag.exchange([0x02, 0x34, 0x00, 0x00, 0x04, 0x00] + Array(repeating: 7, count: 20))
        #expect(five == [0x01, 0x0F])
        #expect(tag.block(4) == [0, 0, 0, 0])
        #expect(tag.exchange([0x02, 0x24, 0x00, 0x01, 9, 9, 9, 9]) == [0x01, 0x02])
    }

    @Test(
        "The ST25DV16K has no (extended) Lock Block: error 0x01",
        arguments: [
            [UInt8(0x02), 0x22, 0x00], [0x02, 0x32, 0x00, 0x00],
        ])
    func noLockBlock(frame: [UInt8]) {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange(frame) == [0x01, 0x01])
        #expect(!tag.lockedBlocks.contains(true))
    }

    @Test("Get System Information leaves out the memory size; Extended Get System Information has it")
    func systemInformation() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x02, 0x2B]) == [0x00, 0x0B] + S.st25Wire + [0x00, 0x00, 0x26])
        let full: [UInt8] = [0x00, 0x3F] + S.st25Wire + [0x00, 0x00, 0xFF, 0x01, 0x03, 0x26, 0xFB, 0x7F, 0x7B, 0x00]
        #expect(tag.exchange([0x02, 0x3B, 0x3F]) == full)
        #expect(tag.exchange([0x02, 0x3B, 0x7F]) == full)
        #expect(tag.exchange([0x22, 0x3B, 0x3F] + S.st25Wire) == full)
        #expect(tag.exchange([0x02, 0x3B, 0x04]) == [0x00, 0x04] + S.st25Wire + [0xFF, 0x01, 0x03])
        #expect(tag.exchange([0x02, 0x3B, 0x00]) == [0x00, 0x00] + S.st25Wire)
        #expect(tag.exchange([0x02, 0x3B]) == nil)
        #expect(tag.exchange([0x02, 0x3B, 0x3F, 0x00]) == [0x01, 0x02])
    }

    @Test("Extended Get Multiple Block Security Status: one zero byte per block")
    func extendedSecurityStatus() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x02, 0x3C, 0x00, 0x01, 0x03, 0x00]) == [0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(tag.exchange([0x02, 0x2C, 0x00, 0xFF])?.count == 257)
    }

    @Test(
        "Fast reads answer like the standard reads, at twice the data rate",
        arguments: [
            ([UInt8(0x02), 0xC0, 0x02, 0x00], [UInt8(0x02), 0x20, 0x00]),
            ([0x42, 0xC3, 0x02, 0x00, 0x03], [0x42, 0x23, 0x00, 0x03]),
            ([0x02, 0xC4, 0x02, 0x2C, 0x01], [0x02, 0x30, 0x2C, 0x01]),
            ([0x02, 0xC5, 0x02, 0x00, 0x00, 0xFF, 0x01], [0x02, 0x33, 0x00, 0x00, 0xFF, 0x01]),
            ([0x02, 0xC5, 0x02, 0x00, 0x02, 0x00, 0x00], [0x02, 0x33, 0x00, 0x02, 0x00, 0x00]),
        ])
    func fastReads(fast: [UInt8], standard: [UInt8]) {
        var tag = ISO15693Tag.formatted(.st25dv16k)
        _ = tag.exchange([0x02, 0x31, 0x2C, 0x01, 5, 6, 7, 8])
        let answer = tag.respond(to: fast, context: ExchangeContext())
        let expected = tag.exchange(standard) ?? []
        #expect(answer.transceivedBytes == expected)
        #expect(answer.frames == [AirFrame(reader: .bytes(fast.count), tag: .bits(4 * expected.count + 4))])
    }

    @Test("Custom commands: another manufacturer's code is ignored; unknown ST codes answer 0x01")
    func customCommands() {
        var tag = ISO15693Tag.blank(.st25dv16k)
        #expect(tag.exchange([0x02, 0xC0, 0x04, 0x00]) == nil)
        #expect(tag.exchange([0x02, 0xC0]) == nil)
        #expect(tag.exchange([0x02, 0xAB, 0x02]) == [0x01, 0x01])
        #expect(tag.exchange([0x02, 0xE0, 0x02]) == [0x01, 0x01])
        #expect(tag.exchange([0x22, 0xC0, 0x02] + S.st25Wire + [0x00]) == [0x00, 0x00, 0x00, 0x00, 0x00])
    }
}
