import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

/// `Type5Engine.wipe`: any Type 5 tag, broken TLVs included, back to an empty formatted tag
/// (T5T 1.0 §4.3–4.4), tearing-safe, refusing locked blocks and a read-only CC before writing.
@Suite struct Type5WipeTests {
    static let engine = Type5Engine()

    /// A SLIX2 holding `length` bytes of message, then its NDEF TLV broken when `broken`.
    static func prepared(length: Int, broken: Bool = false) async throws -> Type5Field {
        let field = try await Type5Field(.slix2)
        try await engine.writeNDEF(Type5Fixtures.message(length: length), on: field.connection)
        if broken { try await field.poke([0x03, 0xFF, 0x7F, 0xFF], at: 4) }  // a 3-byte length past the data area
        return field
    }

    @Test func brokenTLVsBecomeAnEmptyTag() async throws {
        let field = try await Self.prepared(length: 120, broken: true)
        await #expect(throws: TagEngineError.self) { try await Self.engine.readNDEF(on: field.connection) }
        let before = try #require(await field.tag())
        let written = try await Self.engine.wipe(on: field.connection)
        let after = try #require(await field.tag())
        #expect(after.blocks[0] == before.blocks[0], "the CC stays")
        #expect(after.blocks[1] == [0x03, 0x00, 0xFE, 0x00])
        #expect(after.blocks[2..<after.blocks.count - 1].allSatisfy { $0 == [0, 0, 0, 0] }, "the data area is zeroed")
        #expect(
            written == before.blocks[1..<before.blocks.count - 1].filter { $0 != [0, 0, 0, 0] }.count
                + (before.blocks[1] == [0, 0, 0, 0] ? 1 : 0))
        #expect(try await Self.engine.readNDEF(on: field.connection).message.isEmpty)
        #expect(try await Self.engine.wipe(on: field.connection) == 0, "a wiped tag needs no writes")
    }

    @Test func aBlankTagIsFormattedWithTheCCLast() async throws {
        let field = try await Type5Field(.slix2, blank: true)
        let written = try await Self.engine.wipe(on: field.connection)
        #expect(written == 2)
        let tag = try #require(await field.tag())
        #expect(tag.blocks[0].first == 0xE1)
        #expect(try await Self.engine.readNDEF(on: field.connection).message.isEmpty)
    }

    @Test func aLockedBlockOrAReadOnlyCCIsRefusedBeforeWriting() async throws {
        let field = try await Self.prepared(length: 40)
        try await Self.engine.makeReadOnly(on: field.connection)
        let before = try #require(await field.tag())
        let refused = await #expect(throws: TagEngineError.self) { try await Self.engine.wipe(on: field.connection) }
        #expect(refused?.code == .readOnly)
        #expect(try #require(await field.tag()).blocks == before.blocks, "nothing written")
    }

    @Test func everyInterruptedWipeLeavesTheOldMessageOrAnEmptyTag() async throws {
        let old = Type5Fixtures.message(length: 90)
        let clean = try await Self.prepared(length: 90)
        clean.meter.reset()
        try await Self.engine.wipe(on: clean.connection)
        let commands = clean.meter.statistics.commands
        for command in 1...commands {
            for outcome in FieldFault.TearOutcome.allCases {
                let field = try await Self.prepared(length: 90)
                await field.field.inject(.tear(command: command, outcome: outcome), into: field.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await Self.engine.wipe(on: field.connection) }
                let back = try await field.reinserted()
                let found = try await Self.engine.readNDEF(on: back.connection).message
                #expect(found == old || found.isEmpty, "torn at command \(command)/\(commands) \(outcome): \(found.count) B")
            }
        }
    }
}
