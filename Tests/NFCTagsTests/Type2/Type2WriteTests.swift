import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2WriteTests {
    @Test(arguments: [
        (VirtualTagKind.ntag213, [6, 100, 142]), (.ntag215, [6, 254, 255, 492]), (.ntag216, [6, 300, 868]),
        (.ultralight, [6, 126]), (.ultralightMF0UL11, [6, 46]),
    ])
    func messagesRoundTripUpToTheCapacity(kind: VirtualTagKind, lengths: [Int]) async throws {
        let bench = try await Type2Bench(kind)
        for length in lengths + [6] {
            let message = type2Message(length: length, fill: UInt8(length & 0xFF))
            try await bench.engine.writeNDEF(message, on: bench.connection)
            let result = try await bench.engine.readNDEF(on: bench.connection)
            #expect(result.message == message, "\(kind) \(length) B")
            #expect(result.status.messageLength == length)
        }
    }

    @Test func aFreshTagGetsTheMessageThenItsLength() async throws {
        let bench = try await Type2Bench(.ntag213)
        let message = type2Message(length: 10)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        let writes = bench.connection.frames.filter { $0.first == 0xA2 }
        // The length was already 0: pages 5–7 (message and Terminator), then page 4 with the length.
        #expect(writes.map { $0[1] } == [5, 6, 7, 4])
        #expect(writes.last == [0xA2, 0x04, 0x03, 0x0A] + message.prefix(2))
        let memory = await bench.memory()
        #expect(Array(memory[16..<29]) == [0x03, 0x0A] + message + [0xFE])
    }

    @Test func replacingAMessageEmptiesTheLengthFirstAndSkipsUnchangedPages() async throws {
        let bench = try await Type2Bench(.ntag215)
        let old = type2Message(length: 100, fill: 0x11)
        try await bench.engine.writeNDEF(old, on: bench.connection)
        var new = old
        new[50] = 0x22  // byte 18 + 50 = 68: page 17
        bench.connection.clear()
        try await bench.engine.writeNDEF(new, on: bench.connection)
        let writes = bench.connection.frames.filter { $0.first == 0xA2 }
        #expect(writes.map { $0[1] } == [4, 17, 4])
        #expect(writes.first == [0xA2, 0x04, 0x03, 0x00] + old.prefix(2))
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == new)
    }

    @Test func theSameMessageIsNotWrittenAgain() async throws {
        let bench = try await Type2Bench(.ntag216)
        let message = type2Message(length: 500)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        bench.connection.clear()
        try await bench.engine.writeNDEF(message, on: bench.connection)
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func aChangeInsideTheLengthPageAloneIsOneWrite() async throws {
        let bench = try await Type2Bench(.ntag213)
        let old = type2Message(length: 20, fill: 0x11)
        try await bench.engine.writeNDEF(old, on: bench.connection)
        var new = old
        new[1] ^= 0xFF  // page 4 holds 03 14 m0 m1
        bench.connection.clear()
        try await bench.engine.writeNDEF(new, on: bench.connection)
        #expect(bench.connection.frames.filter { $0.first == 0xA2 } == [[0xA2, 0x04, 0x03, 0x14] + new.prefix(2)])
    }

    @Test func aFullDataAreaHasNoTerminator() async throws {
        let bench = try await Type2Bench(.ntag216)
        let message = type2Message(length: 868)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        let memory = await bench.memory()
        #expect(Array(memory[16..<20]) == [0x03, 0xFF, 0x03, 0x64])
        #expect(Array(memory[20..<888]) == message)
        #expect(Array(memory[888..<904]) == [UInt8](repeating: 0, count: 16))  // user memory past the CC's area
    }

    @Test(arguments: [(VirtualTagKind.ntag213, 143), (.ntag216, 869), (.ultralightMF0UL11, 47)])
    func tooLargeIsCapacityExceededBeforeAnyWrite(kind: VirtualTagKind, length: Int) async throws {
        let bench = try await Type2Bench(kind)
        await #expect(throws: TagEngineError(.capacityExceeded, "")) {
            try await bench.engine.writeNDEF(type2Message(length: length), on: bench.connection)
        }
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test(arguments: ["CC", "static", "dynamic"])
    func readOnlyTagsRefuseBeforeAnyWrite(lock: String) async throws {
        let tag = try type2Tag(.ntag213) { memory in
            switch lock {
            case "CC": memory[15] = 0x0F
            case "static": memory[10] = 0x10  // L4
            default: memory[0x28 * 4 + 1] = 0x08  // pages 38–39
            }
        }
        let bench = try await Type2Bench(tag)
        await #expect(throws: TagEngineError(.readOnly, "")) {
            try await bench.engine.writeNDEF(type2Message(length: 8), on: bench.connection)
        }
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func blankTagsAreNotFormatted() async throws {
        let bench = try await Type2Bench(.ntag215, blank: true)
        await #expect(throws: TagEngineError(.notFormatted, "")) {
            try await bench.engine.writeNDEF(type2Message(length: 8), on: bench.connection)
        }
    }

    @Test func reservedAndLockBytesAreNeverWritten() async throws {
        var original: [UInt8] = []
        let tag = try type2Tag(.ntag213) { memory in
            type2Put(hexBytes("0203 2806 04  0103 3C0C 34  0300FE"), at: 16, in: &memory)
            type2Put([UInt8](repeating: 0xEE, count: 6), at: 40, in: &memory)
            original = memory
        }
        let bench = try await Type2Bench(tag)
        let message = type2Message(length: 124, fill: 0x42)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        let memory = await bench.memory()
        #expect(Array(memory[40..<46]) == Array(original[40..<46]))
        #expect(Array(memory[60..<62]) == [0, 0])
        #expect(Array(memory[16..<26]) == Array(original[16..<26]))
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        await #expect(throws: TagEngineError(.capacityExceeded, "")) {
            try await bench.engine.writeNDEF(type2Message(length: 125), on: bench.connection)
        }
    }

    @Test(arguments: ["FE000000", "00000000"])
    func anAreaWithoutNDEFTLVGetsOne(page4: String) async throws {
        let tag = try type2Tag(.ntag213) { memory in
            type2Put(hexBytes("0000") + hexBytes(page4), at: 16, in: &memory)
            type2Put([UInt8](repeating: 0, count: 140), at: 20, in: &memory)
        }
        let bench = try await Type2Bench(tag)
        let message = type2Message(length: 30)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        // At the Terminator; in an area of NULLs only, at its start.
        let memory = await bench.memory()
        let start = page4 == "FE000000" ? 18 : 16
        #expect(Array(memory[start..<start + 2]) == [0x03, 0x1E])
    }

    @Test func passwordProtectedPagesNeedAuthentication() async throws {
        let bench = try await Type2Bench(.ntag213)
        try await bench.engine.setPassword([1, 2, 3, 4], pack: [0xAB, 0xCD], protectFrom: 4, protectReads: false, on: bench.connection)
        let connection = try await Type2Bench.connect(bench.field, bench.id)  // AUTH0 in force
        let error = await #expect(throws: TagEngineError.self) {
            try await bench.engine.writeNDEF(type2Message(length: 12), on: connection)
        }
        #expect(error?.code == .tagError)
        #expect(error?.tagStatus == [0x00])
        #expect(try await bench.engine.authenticate(password: [1, 2, 3, 4], on: connection) == [0xAB, 0xCD])
        try await bench.engine.writeNDEF(type2Message(length: 12), on: connection)
        #expect(try await bench.engine.readNDEF(on: connection).message == type2Message(length: 12))
    }
}
