import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// A write interrupted at every command — torn with the old or the new data, or the tag pulled
/// out before it — leaves the old message, the new one, or an empty NDEF; never anything else.
@Suite("Type5 tearing")
struct Type5TearingTests {
    static let engine = Type5Engine()

    struct Scenario: Sendable, CustomStringConvertible {
        var kind: VirtualTagKind
        var old: Int
        var new: Int
        var description: String { "\(kind) \(old) B → \(new) B" }
    }

    static let scenarios = [
        Scenario(kind: .slix2, old: 0, new: 100),
        Scenario(kind: .slix2, old: 100, new: 300),  // 1-byte → 3-byte length
        Scenario(kind: .slix2, old: 300, new: 100),  // 3-byte → 1-byte length
        Scenario(kind: .slix2, old: 120, new: 120),  // same length, other bytes
        Scenario(kind: .slix2, old: 200, new: 0),
        Scenario(kind: .iso15693_2k, old: 1000, new: 260),
    ]

    /// A tag holding the scenario's old message.
    private func prepared(_ scenario: Scenario) async throws -> (Type5Field, old: [UInt8], new: [UInt8]) {
        let tag = try await Type5Field(scenario.kind)
        let old = scenario.old == 0 ? [] : Type5Fixtures.message(length: scenario.old, seed: 0x10)
        let new = scenario.new == 0 ? [] : Type5Fixtures.message(length: scenario.new, seed: 0x80)
        try await Self.engine.writeNDEF(old, on: tag.connection)
        tag.meter.reset()
        return (tag, old, new)
    }

    /// After the interrupted write: the tag comes back and must read as old, new or empty.
    private func check(_ tag: Type5Field, old: [UInt8], new: [UInt8], _ label: String) async throws {
        let back = try await tag.reinserted()
        let result = try await Type5Engine().readNDEF(on: back.connection)
        #expect(result.message == old || result.message == new || result.message.isEmpty, "\(label): read \(result.message.count) B")
    }

    @Test("Tear at every command, both outcomes", arguments: scenarios)
    func tearEverywhere(scenario: Scenario) async throws {
        let (clean, _, newMessage) = try await prepared(scenario)
        try await Self.engine.writeNDEF(newMessage, on: clean.connection)
        let commands = clean.meter.statistics.commands
        #expect(commands >= 2)
        for command in 1...commands {
            for outcome in FieldFault.TearOutcome.allCases {
                let (tag, old, new) = try await prepared(scenario)
                await tag.field.inject(.tear(command: command, outcome: outcome), into: tag.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await Self.engine.writeNDEF(new, on: tag.connection) }
                try await check(tag, old: old, new: new, "\(scenario) tear \(command)/\(commands) \(outcome)")
            }
        }
    }

    @Test("Pulled out after every number of commands", arguments: scenarios)
    func removeEverywhere(scenario: Scenario) async throws {
        let (clean, _, newMessage) = try await prepared(scenario)
        try await Self.engine.writeNDEF(newMessage, on: clean.connection)
        let commands = clean.meter.statistics.commands
        for answered in 0..<commands {
            let (tag, old, new) = try await prepared(scenario)
            await tag.field.inject(.removeAfterCommands(answered), into: tag.id)
            await #expect(throws: TagEngineError(.tagLost, "")) { try await Self.engine.writeNDEF(new, on: tag.connection) }
            try await check(tag, old: old, new: new, "\(scenario) removed after \(answered)/\(commands)")
        }
    }

    @Test("Formatting torn anywhere leaves a blank tag or a formatted one", arguments: [VirtualTagKind.slix2, .iso15693_2k])
    func tornFormat(kind: VirtualTagKind) async throws {
        let clean = try await Type5Field(kind, blank: true)
        try await Self.engine.format(on: clean.connection)
        let commands = clean.meter.statistics.commands
        for command in 1...commands {
            for outcome in FieldFault.TearOutcome.allCases {
                let tag = try await Type5Field(kind, blank: true)
                await tag.field.inject(.tear(command: command, outcome: outcome), into: tag.id)
                await #expect(throws: TagEngineError(.tagLost, "")) { try await Self.engine.format(on: tag.connection) }
                let back = try await tag.reinserted()
                let status = try await Type5Engine().queryStatus(on: back.connection)
                #expect(
                    status == .notSupported || (status.state == .readWrite && status.messageLength == 0),
                    "\(kind) tear \(command) \(outcome): \(status)")
            }
        }
    }
}
