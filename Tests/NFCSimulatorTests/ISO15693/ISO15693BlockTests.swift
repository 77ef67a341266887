import NFCSimulator
import NFCTransport
import Testing

/// Block reads, writes and locks on the ICODE SLIX2 (ISO/IEC 15693-3, SL2S2602 data sheet).
@Suite("ISO15693 block commands (ICODE SLIX2)")
struct ISO15693BlockTests {
    typealias S = ISO15693TestSupport

    @Test("Read Single Block: plain, with the option flag (security status), addressed")
    func readSingleBlock() {
        var tag = ISO15693Tag.formatted(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x20, 0x00]) == [0x00, 0xE1, 0x40, 0x27, 0x01])
        #expect(tag.exchange([0x42, 0x20, 0x00]) == [0x00, 0x00, 0xE1, 0x40, 0x27, 0x01])
        #expect(tag.exchange([0x22, 0x20] + S.slix2Wire + [0x01]) == [0x00, 0x03, 0x00, 0xFE, 0x00])
    }

    @Test(
        "Error 0x10 past the last block; error 0x02 for a short or long request",
        arguments: [
            ([UInt8(0x02), 0x20, 0x50], [UInt8(0x01), 0x10]), ([0x02, 0x20, 0xFF], [0x01, 0x10]),
            ([0x02, 0x20], [0x01, 0x02]), ([0x02, 0x20, 0x00, 0x00], [0x01, 0x02]),
            ([0x02, 0x21, 0x50, 1, 2, 3, 4], [0x01, 0x10]), ([0x02, 0x21, 0x01, 1, 2, 3], [0x01, 0x02]),
            ([0x02, 0x22, 0x50], [0x01, 0x10]), ([0x02, 0x22], [0x01, 0x02]),
            ([0x02, 0x23, 0x50, 0x00], [0x01, 0x10]), ([0x02, 0x23, 0x00], [0x01, 0x02]),
            ([0x02, 0x2C, 0x50, 0x00], [0x01, 0x10]), ([0x02, 0x2C, 0x00, 0x00, 0x00], [0x01, 0x02]),
        ])
    func blockErrors(frame: [UInt8], expected: [UInt8]) {
        var tag = ISO15693Tag.formatted(.icodeSLIX2)
        let before = tag
        #expect(tag.exchange(frame) == expected)
        #expect(tag.memory == before.memory)
    }

    @Test("Write Single Block then read it back; the write programs EEPROM on the 4096/fc grid")
    func writeSingleBlock() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        let answer = tag.respond(to: [0x02, 0x21, 0x05, 0xDE, 0xAD, 0xBE, 0xEF], context: ExchangeContext())
        #expect(answer.transceivedBytes == [0x00])
        #expect(answer.writesMemory)
        // 5 ms of programming → 17 slots of 4096/fc = 5.135 ms.
        #expect(abs(S.microseconds(answer.processingTime) - 17 * 4096 / 13.56) < 0.01)
        #expect(tag.block(5) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(tag.exchange([0x02, 0x20, 0x05]) == [0x00, 0xDE, 0xAD, 0xBE, 0xEF])
    }

    @Test("With the option flag a write answers after the reader's EOF, 20 ms later, errors too")
    func optionFlagWrite() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        let written = tag.respond(to: [0x42, 0x21, 0x05, 1, 2, 3, 4], context: ExchangeContext())
        #expect(written.transceivedBytes == [0x00])
        #expect(written.processingTime == .milliseconds(20) + .nanoseconds(37_760))
        #expect(tag.exchange([0x02, 0x22, 0x05]) == [0x00])
        let refused = tag.respond(to: [0x42, 0x21, 0x05, 1, 2, 3, 4], context: ExchangeContext())
        #expect(refused.transceivedBytes == [0x01, 0x12])
        #expect(refused.processingTime == .milliseconds(20) + .nanoseconds(37_760))
        #expect(!refused.writesMemory)
    }

    @Test("Lock Block: the block then refuses writes (0x12) and a second lock (0x11)")
    func lockBlock() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x21, 0x05, 1, 2, 3, 4]) == [0x00])
        #expect(tag.exchange([0x02, 0x22, 0x05]) == [0x00])
        #expect(tag.exchange([0x02, 0x21, 0x05, 9, 9, 9, 9]) == [0x01, 0x12])
        #expect(tag.exchange([0x02, 0x22, 0x05]) == [0x01, 0x11])
        #expect(tag.block(5) == [1, 2, 3, 4])
        #expect(tag.exchange([0x42, 0x20, 0x05]) == [0x00, 0x01, 1, 2, 3, 4])
        #expect(tag.exchange([0x02, 0x2C, 0x04, 0x02]) == [0x00, 0x00, 0x01, 0x00])
        #expect(tag.lockedBlocks[5])
    }

    @Test("Read Multiple Blocks: number of blocks − 1, security status with the option flag")
    func readMultipleBlocks() {
        var tag = ISO15693Tag.formatted(.icodeSLIX2)
        let cc: [UInt8] = [0xE1, 0x40, 0x27, 0x01]
        let tlv: [UInt8] = [0x03, 0x00, 0xFE, 0x00]
        #expect(tag.exchange([0x02, 0x23, 0x00, 0x01]) == [0x00] + cc + tlv)
        #expect(tag.exchange([0x42, 0x23, 0x00, 0x01]) == [0x00, 0x00] + cc + [0x00] + tlv)
        let whole = tag.exchange([0x02, 0x23, 0x00, 0x4F])
        #expect(whole?.count == 1 + 320)
    }

    @Test("The SLIX2 truncates a multiple-block range at its last block instead of failing")
    func readMultipleTruncates() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x21, 0x4F, 7, 0, 0, 0]) == [0x00])
        #expect(tag.exchange([0x02, 0x23, 0x4E, 0x09]) == [0x00, 0, 0, 0, 0, 7, 0, 0, 0])
        #expect(tag.exchange([0x02, 0x23, 0x00, 0xFF])?.count == 321)
        #expect(tag.exchange([0x02, 0x2C, 0x4E, 0x09]) == [0x00, 0x00, 0x00])
    }

    @Test(
        "No Write Multiple Blocks, no extended commands, unknown codes: error 0x01",
        arguments: [
            [UInt8(0x02), 0x24, 0x00, 0x00, 1, 2, 3, 4], [0x02, 0x30, 0x00, 0x01], [0x02, 0x31, 0x00, 0x01, 1, 2, 3, 4],
            [0x02, 0x33, 0x00, 0x01, 0x00, 0x00], [0x02, 0x3C, 0x00, 0x00, 0x00, 0x00], [0x02, 0x2F], [0x02, 0x03],
        ])
    func unsupported(frame: [UInt8]) {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange(frame) == [0x01, 0x01])
        let addressed = [0x22, frame[1]] + S.slix2Wire + Array(frame.dropFirst(2))
        #expect(tag.exchange(addressed) == [0x01, 0x01])
    }

    @Test("Extended Get System Information on the SLIX2 reads the UID one byte late: silence")
    func extendedSystemInfoOnSLIX2() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x22, 0x3B, 0x3F] + S.slix2Wire) == nil)
        #expect(tag.exchange([0x02, 0x3B, 0x3F]) == [0x01, 0x01])
    }

    @Test("Writing 01 00 00 00 to block 79 increments the SLIX2 counter; other data presets it")
    func counter() {
        var tag = ISO15693Tag.blank(.icodeSLIX2)
        #expect(tag.exchange([0x02, 0x21, 0x4F, 0x01, 0x00, 0x00, 0x00]) == [0x00])
        #expect(tag.exchange([0x02, 0x21, 0x4F, 0x01, 0x00, 0x00, 0x00]) == [0x00])
        #expect(tag.block(79) == [0x02, 0x00, 0x00, 0x00])
        #expect(tag.exchange([0x02, 0x21, 0x4F, 0xFF, 0xFF, 0x00, 0x00]) == [0x00])
        #expect(tag.exchange([0x02, 0x21, 0x4F, 0x01, 0x00, 0x00, 0x00]) == [0x00])
        #expect(tag.block(79) == [0xFF, 0xFF, 0x00, 0x00])
        #expect(tag.exchange([0x02, 0x21, 0x4E, 0x01, 0x00, 0x00, 0x00]) == [0x00])
        #expect(tag.block(78) == [0x01, 0x00, 0x00, 0x00])
    }

    @Test("A torn write leaves the old data (writesMemory lets the field undo it)")
    func tornWrite() async throws {
        let harness = try await FieldHarness(ISO15693Tag.formatted(.icodeSLIX2))
        await harness.field.inject(.tear(command: 1, outcome: .oldData), into: harness.id)
        await #expect(throws: TransportError(.tagLost)) {
            try await harness.send([0x02, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00])
        }
        #expect(await harness.tag(as: ISO15693Tag.self)?.block(0) == [0xE1, 0x40, 0x27, 0x01])
    }

    @Test("Error codes are those of ISO/IEC 15693-3 Table 7")
    func errorCodes() {
        #expect(ISO15693ErrorCode.allCases.map(\.rawValue) == [0x01, 0x02, 0x03, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14])
    }
}
