import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2FormatTests {
    @Test(arguments: [
        (VirtualTagKind.ntag213, 0x12, 142), (.ntag215, 0x3E, 492), (.ntag216, 0x6D, 868), (.ultralight, 0x10, 126),
        (.ultralightMF0UL11, 0x06, 46),
    ])
    func blankTagsGetTheirModelsCCAndAnEmptyMessage(kind: VirtualTagKind, size: UInt8, capacity: Int) async throws {
        let bench = try await Type2Bench(kind, blank: true)
        try await bench.engine.format(on: bench.connection)
        let memory = await bench.memory()
        #expect(Array(memory[12..<20]) == [0xE1, 0x10, size, 0x00, 0x03, 0x00, 0xFE, 0x00])
        // The TLVs first, the one-time-programmable CC last.
        #expect(bench.connection.frames.filter { $0.first == 0xA2 }.map { $0[1] } == [4, 3])
        #expect(try await bench.engine.queryStatus(on: bench.connection) == NDEFStatus(state: .readWrite, capacity: capacity))
        let message = type2Message(length: 20)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
    }

    @Test(arguments: VirtualTagKind.type2Kinds)
    func formattedTagsAreAlreadyFormatted(kind: VirtualTagKind) async throws {
        let bench = try await Type2Bench(kind)
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await bench.engine.format(on: bench.connection) }
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func aModelThatCannotBeToldIsUnsupported() async throws {
        let legacy = try await Type2Bench(LegacyType2Tag(try type2Tag(.ntag213, blank: true)))
        await #expect(throws: TagEngineError(.unsupported, "")) { try await legacy.engine.format(on: legacy.connection) }
        let pcsc = try await Type2Bench(.ntag213, blank: true, configuration: .type2ReadAndWriteOnly)
        await #expect(throws: TagEngineError(.unsupported, "")) { try await pcsc.engine.format(on: pcsc.connection) }
        #expect(pcsc.connection.frames.isEmpty)
    }

    @Test func aProgrammedPage3ThatIsNotACCCannotBeFormatted() async throws {
        let tag = try type2Tag(.ntag215, blank: true) { $0[15] = 0x01 }
        let bench = try await Type2Bench(tag)
        let error = await #expect(throws: TagEngineError.self) { try await bench.engine.format(on: bench.connection) }
        #expect(error?.code == .unsupported)
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func aLockedCCPageIsReadOnly() async throws {
        let tag = try type2Tag(.ntag213, blank: true) { $0[10] = 0x08 }  // L-CC
        let bench = try await Type2Bench(tag)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await bench.engine.format(on: bench.connection) }
    }

    /// Page 4 holds stale bytes that read as a 5-byte message once a CC appears: the TLVs are
    /// written before the CC, so an interrupted format never exposes them.
    @Test func anInterruptedFormatLeavesABlankOrAFormattedTag() async throws {
        let tag = try type2Tag(.ntag216, blank: true) { type2Put(hexBytes("0305D1010154 41FE"), at: 16, in: &$0) }
        for outcome in FieldFault.TearOutcome.allCases {
            for command in 1...4 {
                let bench = try await Type2Bench(tag)
                await bench.field.inject(.tear(command: command, outcome: outcome), into: bench.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.format(on: bench.connection) }
                let connection = try await bench.reinsertAndConnect()
                let status = try await bench.engine.queryStatus(on: connection)
                if status == .notSupported {
                    try await bench.engine.format(on: connection)
                }
                #expect(try await bench.engine.readNDEF(on: connection).message == [], "\(outcome) at \(command)")
            }
        }
    }
}
