import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Tearing: a write interrupted at every one of its commands — torn with old data, torn with new
/// data, or the tag pulled away before the command — leaves, once the tag is back, the old
/// message, the new one, or an empty NDEF, and never anything else.
@Suite("Type4 tearing")
struct Type4TearingTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var configuration: Type4Tag.Configuration
        var reader: SimulatedReaderConfiguration
        var old: [UInt8]
        var new: [UInt8]
        /// Whether the write passes through NLEN 0000 on its way to a new, non-empty message.
        var passesThroughEmpty = true
        var testDescription: String { name }
    }

    enum Interruption: Sendable, CaseIterable, CustomTestStringConvertible {
        case tornOldData, tornNewData, removedBefore
        var testDescription: String {
            switch self {
            case .tornOldData: "torn (old data)"
            case .tornNewData: "torn (new data)"
            case .removedBefore: "removed before the command"
            }
        }
    }

    static let scenarios: [Scenario] = {
        let long = Type4Fixtures.message(size: 1500, seed: 1)
        var edited = long
        for index in stride(from: 40, to: 1500, by: 400) { edited[index] ^= 0x5A }
        let big = Type4Fixtures.message(size: 39_000, seed: 2)
        return [
            Scenario(
                name: "short URI → 600 B in 255-byte chunks", configuration: .init(), reader: Type4Fixtures.shortReader(),
                old: Type4Fixtures.uri("old"), new: Type4Fixtures.message(size: 600, seed: 5)),
            Scenario(
                name: "empty → 600 B", configuration: .init(), reader: .ideal, old: [], new: Type4Fixtures.message(size: 600, seed: 6),
                passesThroughEmpty: false),
            Scenario(
                name: "600 B → empty", configuration: .init(), reader: .ideal, old: Type4Fixtures.message(size: 600, seed: 6), new: [],
                passesThroughEmpty: false),
            Scenario(
                name: "1500 B → the same with 4 bytes changed (ranges skipped)", configuration: .init(maxUpdateLength: 200),
                reader: .ideal, old: long, new: edited),
            Scenario(
                name: "300 B → its 200-byte prefix (NLEN only)", configuration: .init(), reader: .ideal,
                old: Type4Fixtures.message(size: 300, seed: 7), new: Array(Type4Fixtures.message(size: 300, seed: 7).prefix(200)),
                passesThroughEmpty: false),
            Scenario(
                name: "mapping 3.0: 39 KB over 7FFF with ENLEN, D6 and D7",
                configuration: .init(ndefFileSize: 40_000, maxUpdateLength: 4000, extendedLength: true),
                reader: .ideal, old: Type4Fixtures.uri("before"), new: big),
        ]
    }()

    func place(_ scenario: Scenario) async throws -> Type4Bench {
        try await Type4Bench(try Type4Tag(configuration: scenario.configuration, message: scenario.old), reader: scenario.reader)
    }

    @Test("every command of a write, interrupted", arguments: scenarios, Interruption.allCases)
    func interruptedEverywhere(scenario: Scenario, interruption: Interruption) async throws {
        let engine = Type4Engine()
        // A clean run: how many commands the write takes, and that it works.
        let clean = try await place(scenario)
        try await engine.writeNDEF(scenario.new, on: clean.connection)
        let total = clean.meter.statistics.commands
        #expect(try await engine.readNDEF(on: clean.connection).message == scenario.new)

        var seen: Set<[UInt8]> = []
        for command in 1...total {
            var bench = try await place(scenario)
            switch interruption {
            case .tornOldData: await bench.field.inject(.tear(command: command, outcome: .oldData), into: bench.id)
            case .tornNewData: await bench.field.inject(.tear(command: command, outcome: .newData), into: bench.id)
            case .removedBefore: await bench.field.inject(.removeAfterCommands(command - 1), into: bench.id)
            }
            let error = await engineError { () async throws(TagEngineError) in
                try await engine.writeNDEF(scenario.new, on: bench.connection)
            }
            #expect(error?.code == .tagLost, "command \(command): \(String(describing: error))")
            try await bench.reinsert()
            let stored = try await engine.readNDEF(on: bench.connection).message
            #expect(
                stored == scenario.old || stored == scenario.new || stored.isEmpty,
                "command \(command) of \(total) left \(stored.count) bytes")
            seen.insert(stored)
        }
        // Interrupted before the first write the old message survives; a last write torn with
        // its new data completes the new one.
        #expect(seen.contains(scenario.old))
        if interruption == .tornNewData { #expect(seen.contains(scenario.new)) }
        if scenario.passesThroughEmpty { #expect(seen.contains([])) }
        #expect(total >= 6)
    }
}
