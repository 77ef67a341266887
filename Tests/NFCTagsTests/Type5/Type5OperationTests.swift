import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCTags

/// Operations driven by hand: each frame checked byte for byte, each answer typed in.
@Suite("Type5 operations by hand")
struct Type5OperationTests {
    static let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x08, 0x3A, 0x5C, 0x71, 0x92]
    static let wire: [UInt8] = uid.reversed()
    static let limits = ExchangeLimits(maxCommandLength: 64, maxResponseLength: 512, extendedLengthAPDUs: false, nativeCommands: .all)

    static func session(limits: ExchangeLimits = limits, cap: Int? = nil) throws -> Type5Session {
        let target = TargetInfo(handle: 1, identifier: uid, parameters: .iso15693(.init(dsfid: 0)))
        return try Type5Session(target: target, limits: limits, maximumBlocksPerRead: cap, learning: Type5ReadLearning())
    }

    static func frame<T>(_ step: TagStep<T>) -> [UInt8]? {
        if case .transceive(let frame, _) = step { return frame }
        return nil
    }

    @Test("Read: blocks 0–3 with status, then the rest of the message in one Read Multiple Blocks")
    func readByHand() throws {
        var operation = Type5ReadNDEFOperation(session: try Self.session())
        // Read Multiple Blocks 0–3, option flag (security status), addressed.
        var step = try operation.start()
        #expect(Self.frame(step) == [0x62, 0x23] + Self.wire + [0x00, 0x03])
        // CC E1 40 27 01; NDEF TLV 03 0A at offset 4; message bytes 6…15.
        let blocks: [[UInt8]] = [
            [0xE1, 0x40, 0x27, 0x01], [0x03, 0x0A, 0xD1, 0x01], [0x06, 0x54, 0x02, 0x65], [0x6E, 0x68, 0x69, 0x21],
        ]
        step = try operation.resume(with: .success([0x00] + blocks.flatMap { [0x00] + $0 }))
        // The message ends at byte 16 (exclusive), which the first read already covered.
        guard case .done(let result) = step else {
            Issue.record("expected done, got \(step)")
            return
        }
        #expect(result.message == [0xD1, 0x01, 0x06, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69, 0x21])
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 308, messageLength: 10))
    }

    @Test("Read: a longer message is fetched with one more read from block 4; a refused long read is split")
    func readSplitsAfterRefusal() throws {
        var operation = Type5ReadNDEFOperation(session: try Self.session())
        _ = try operation.start()
        let head: [[UInt8]] = [[0xE1, 0x40, 0x27, 0x01], [0x03, 0x40, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
        var step = try operation.resume(with: .success([0x00] + head.flatMap { [0x00] + $0 }))
        // 0x40 = 64 bytes from offset 6: up to byte 70, blocks 4–17 (14 blocks), no status.
        #expect(Self.frame(step) == [0x22, 0x23] + Self.wire + [0x04, 0x0D])
        // The tag refuses (error 0x0F): ask for half.
        step = try operation.resume(with: .success([0x01, 0x0F]))
        #expect(Self.frame(step) == [0x22, 0x23] + Self.wire + [0x04, 0x06])
        step = try operation.resume(with: .success([0x00] + Array(repeating: 0x11, count: 28)))
        #expect(Self.frame(step) == [0x22, 0x23] + Self.wire + [0x0B, 0x06])
        #expect(operation.session.learning.maximumBlocks == 7)
        step = try operation.resume(with: .success([0x00] + Array(repeating: 0x22, count: 28)))
        guard case .done(let result) = step else {
            Issue.record("expected done")
            return
        }
        #expect(result.message == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0x11, count: 28) + Array(repeating: 0x22, count: 26))
    }

    @Test("A truncated or malformed answer is .unexpectedResponse, never a trap")
    func truncatedAnswers() throws {
        for answer: [UInt8] in [[], [0x00], [0x00, 0xE1, 0x40], [0x01], [0x00] + Array(repeating: 0, count: 200)] {
            var operation = Type5ReadNDEFOperation(session: try Self.session())
            _ = try operation.start()
            do {
                _ = try operation.resume(with: .success(answer))
                Issue.record("accepted \(answer.count) bytes")
            } catch {
                #expect(error.code == .unexpectedResponse, "\(answer.count) bytes: \(error)")
            }
        }
    }

    @Test("A probe refused with 0x01 falls back to Read Single Block; the block size comes from its length")
    func fallbackToSingle() throws {
        var operation = Type5ReadNDEFOperation(session: try Self.session())
        var step = try operation.start()
        step = try operation.resume(with: .success([0x01, 0x01]))  // 4 blocks refused → 2
        #expect(Self.frame(step) == [0x62, 0x23] + Self.wire + [0x00, 0x01])
        step = try operation.resume(with: .success([0x01, 0x01]))  // 2 refused → 1 block: Read Single Block
        #expect(Self.frame(step) == [0x62, 0x20] + Self.wire + [0x00])
        step = try operation.resume(with: .success([0x00, 0x00, 0xE1, 0x40, 0x27, 0x00]))  // MBREAD clear
        #expect(Self.frame(step) == [0x62, 0x20] + Self.wire + [0x01])
        step = try operation.resume(with: .success([0x00, 0x00, 0x03, 0x00, 0xFE, 0x00]))
        guard case .done(let result) = step else {
            Issue.record("expected done")
            return
        }
        #expect(result.message.isEmpty)
        #expect(result.status.state == .readWrite)
    }

    @Test("Identify: Get System Information, then the extended form when the memory size is missing")
    func identifyByHand() throws {
        var operation = Type5IdentifyOperation(session: try Self.session())
        var step = try operation.start()
        #expect(Self.frame(step) == [0x22, 0x2B] + Self.wire)
        step = try operation.resume(with: .success([0x00, 0x0B] + Self.wire + [0x00, 0x00, 0x26]))
        #expect(Self.frame(step) == [0x22, 0x3B, 0x2F] + Self.wire)
        step = try operation.resume(with: .failure(TransportError(.timeout)))
        guard case .done(let info) = step else {
            Issue.record("expected done")
            return
        }
        #expect(info.icReference == 0x26 && info.blockCount == nil)
    }

    @Test("Write plan: length 0 first, then the body and terminator, the length block last")
    func writePlanOrder() throws {
        // CC, then NDEF TLV 03 03 AA BB CC FE: replace with a 6-byte message.
        let memory = hexBytes("E1 40 10 01 03 03 AA BB CC FE 00 00 00 00 00 00")
        let layout = Type5NDEFLayout(tlvOffset: 4, hasNDEFTLV: true, headerLength: 2, messageLength: 3, areaEnd: 132)
        let plan = try Type5WritePlan(message: [1, 2, 3, 4, 5, 6], layout: layout, memory: memory, blockSize: 4)
        #expect(plan.writes.map(\.block) == [1, 2, 3, 1])
        #expect(
            plan.writes.map(\.bytes) == [
                [0x03, 0x00, 0xAA, 0xBB], [3, 4, 5, 6], [0xFE, 0, 0, 0], [0x03, 0x06, 1, 2],
            ])
        // The same message again: nothing to write.
        let written = hexBytes("E1 40 10 01 03 06 01 02 03 04 05 06 FE 00 00 00")
        #expect(try Type5WritePlan(message: [1, 2, 3, 4, 5, 6], layout: layout, memory: written, blockSize: 4).writes.isEmpty)
        // A change inside the length block only: one write.
        let oneBlock = try Type5WritePlan(message: [9, 2, 3, 4, 5, 6], layout: layout, memory: written, blockSize: 4)
        #expect(oneBlock.writes.map(\.block) == [1])
    }

    @Test("Write plan on an empty NDEF: no interim write; the length block last")
    func writePlanFromEmpty() throws {
        let memory = hexBytes("E2 40 00 01 00 00 00 FF 03 00 FE 00 00 00 00 00 00 00 00 00")
        let layout = Type5NDEFLayout(tlvOffset: 8, hasNDEFTLV: true, headerLength: 2, messageLength: 0, areaEnd: 2048)
        let message = Array(repeating: UInt8(0x5A), count: 300)
        let blocksNeeded = (8 + 4 + 300 + 1 + 3) / 4
        let padded = memory + Array(repeating: 0, count: blocksNeeded * 4 - memory.count)
        let plan = try Type5WritePlan(message: message, layout: layout, memory: padded, blockSize: 4)
        #expect(plan.writes.first?.block == 3)
        #expect(plan.writes.last?.block == 2)
        #expect(plan.writes.last?.bytes == [0x03, 0xFF, 0x01, 0x2C])
        #expect(!plan.writes.dropLast().contains { $0.block == 2 })
    }
}
