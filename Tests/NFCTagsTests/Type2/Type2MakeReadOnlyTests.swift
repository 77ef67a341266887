import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

@Suite struct Type2MakeReadOnlyTests {
    @Test(arguments: [
        (VirtualTagKind.ntag213, [0xFF, 0x0F, 0x3F, 0xBD] as [UInt8]), (.ntag215, [0xFF, 0x00, 0x0F, 0xBD]),
        (.ntag216, [0xFF, 0x3F, 0x7F, 0xBD]), (.ultralight, [0xFF, 0x03, 0x1F, 0xBD]), (.ultralightMF0UL11, []),
    ])
    func everyDataPageEndsLockedAndTheMessageStays(kind: VirtualTagKind, dynamicLocks: [UInt8]) async throws {
        let bench = try await Type2Bench(kind)
        let message = type2Message(length: 30)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        bench.connection.clear()
        try await bench.engine.makeReadOnly(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(chip.page(3)[3] == 0x0F)
        #expect(Array(chip.page(2)[2...]) == [0xFF, 0xFF])
        if let lockPage = chip.model.dynamicLockPage { #expect(chip.page(lockPage) == dynamicLocks) }
        #expect((3...chip.model.lastUserPage).allSatisfy { chip.isLocked($0) })
        // The CC first, the static lock bits last.
        let pages = bench.connection.frames.filter { $0.first == 0xA2 }.map { Int($0[1]) }
        #expect(pages.first == 3)
        #expect(pages.last == 2)

        #expect(try await bench.engine.queryStatus(on: bench.connection).state == .readOnly)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await bench.engine.writeNDEF(message, on: bench.connection) }
        bench.connection.clear()
        try await bench.engine.makeReadOnly(on: bench.connection)
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func blankTagsAreNotFormatted() async throws {
        let bench = try await Type2Bench(.ntag213, blank: true)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await bench.engine.makeReadOnly(on: bench.connection) }
    }

    @Test func withoutTheModelTheDynamicLockBytesAreUnknown() async throws {
        let bench = try await Type2Bench(.ntag215, configuration: .type2ReadAndWriteOnly)
        await #expect(throws: TagEngineError(.unsupported, "")) { try await bench.engine.makeReadOnly(on: bench.connection) }
        #expect(bench.connection.count(0xA2) == 0)
    }

    @Test func aLockControlTLVLocatesThemOnAnyReader() async throws {
        let tag = try type2Tag(.ntag213) { type2Put(hexBytes("0103A00C34 0300FE"), at: 16, in: &$0) }
        let bench = try await Type2Bench(tag, configuration: .type2ReadAndWriteOnly)
        try await bench.engine.makeReadOnly(on: bench.connection)
        let chip = try #require(await bench.chip())
        #expect(chip.page(0x28) == [0xFF, 0x0F, 0x00, 0xBD])
        #expect((3...0x27).allSatisfy { chip.isLocked($0) })
        #expect(Set(bench.connection.codes) == [0x30, 0xA2])
    }

    @Test func olderChipsUseTheDefaultPlaceAfterTheDataArea() async throws {
        // NTAG213's lock page 28h is where Type 2 Tag 1.0 §2.2.2 puts them for a 144-byte area.
        let bench = try await Type2Bench(LegacyType2Tag(try type2Tag(.ntag213)))
        try await bench.engine.makeReadOnly(on: bench.connection)
        let chip = try #require(await bench.chip(as: LegacyType2Tag.self)?.inner)
        #expect(chip.page(0x28) == [0xFF, 0x0F, 0x00, 0xBD])
        #expect((3...0x27).allSatisfy { chip.isLocked($0) })
    }

    /// Whichever command an interruption hits, a tag with any page locked reports read-only.
    @Test(arguments: [VirtualTagKind.ntag213, .ntag216])
    func anInterruptedLockNeverLeavesALockedTagReportedWritable(kind: VirtualTagKind) async throws {
        let tag = try type2Tag(kind)
        for outcome in FieldFault.TearOutcome.allCases {
            for command in 1...6 {
                let bench = try await Type2Bench(tag)
                await bench.field.inject(.tear(command: command, outcome: outcome), into: bench.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await bench.engine.makeReadOnly(on: bench.connection) }
                let connection = try await bench.reinsertAndConnect()
                let chip = try #require(await bench.chip())
                let status = try await bench.engine.queryStatus(on: connection)
                if (3...chip.model.lastUserPage).contains(where: { chip.isLocked($0) }) {
                    #expect(status.state == .readOnly, "\(outcome) at \(command)")
                }
                try await bench.engine.makeReadOnly(on: connection)
                #expect(try await bench.engine.queryStatus(on: connection).state == .readOnly)
            }
        }
    }
}

extension Type2Bench {
    func chip<T: VirtualTag>(as type: T.Type) async -> T? { await field.tag(id, as: type) }
}
