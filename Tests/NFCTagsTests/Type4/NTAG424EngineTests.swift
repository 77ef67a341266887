import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// The Type 4 engine on the virtual NTAG 424 DNA: NDEF reads and writes through its ISO
/// commands, a write interrupted at every command, and a SUN-configured tag read twice.
@Suite("NTAG 424 DNA through the Type 4 engine")
struct NTAG424EngineTests {
    static func tag(message: [UInt8]) throws -> NTAG424Tag {
        var tag = NTAG424Tag()
        try tag.setNDEFMessage(message)
        return tag
    }

    @Test func readAndWrite() async throws {
        let bench = try await Type4Bench(try Self.tag(message: Type4Fixtures.uri("old")))
        let engine = Type4Engine()
        #expect(try await engine.readNDEF(on: bench.connection).message == Type4Fixtures.uri("old"))
        let new = Type4Fixtures.message(size: 250, seed: 9)
        try await engine.writeNDEF(new, on: bench.connection)
        #expect(try await engine.readNDEF(on: bench.connection).message == new)
        #expect(await bench.field.tag(bench.id, as: NTAG424Tag.self)?.ndefMessage == new)
        let tooLong = await engineError { () async throws(TagEngineError) in
            try await engine.writeNDEF(Type4Fixtures.message(size: 255, seed: 9), on: bench.connection)
        }
        #expect(tooLong?.code == .capacityExceeded, "\(String(describing: tooLong))")
    }

    /// Every command of a write torn (old or new data) or the tag taken away before it: the old
    /// message, the new one or an empty NDEF, never anything else (each ISOUpdateBinary is
    /// written entirely or not at all, data sheet §8.6; T4T's NLEN-last procedure does the rest).
    @Test(arguments: Type4TearingTests.Interruption.allCases)
    func interruptedEverywhere(interruption: Type4TearingTests.Interruption) async throws {
        let old = Type4Fixtures.uri("old")
        let new = Type4Fixtures.message(size: 240, seed: 4)
        let engine = Type4Engine()
        let clean = try await Type4Bench(try Self.tag(message: old))
        try await engine.writeNDEF(new, on: clean.connection)
        let total = clean.meter.statistics.commands
        var seen: Set<[UInt8]> = []
        for command in 1...total {
            var bench = try await Type4Bench(try Self.tag(message: old))
            switch interruption {
            case .tornOldData: await bench.field.inject(.tear(command: command, outcome: .oldData), into: bench.id)
            case .tornNewData: await bench.field.inject(.tear(command: command, outcome: .newData), into: bench.id)
            case .removedBefore: await bench.field.inject(.removeAfterCommands(command - 1), into: bench.id)
            }
            let error = await engineError { () async throws(TagEngineError) in try await engine.writeNDEF(new, on: bench.connection) }
            #expect(error?.code == .tagLost, "command \(command): \(String(describing: error))")
            try await bench.reinsert()
            let stored = try await engine.readNDEF(on: bench.connection).message
            #expect(stored == old || stored == new || stored.isEmpty, "command \(command) of \(total) left \(stored.count) bytes")
            seen.insert(stored)
        }
        #expect(seen.contains(old) && seen.contains([]))
        if interruption == .tornNewData { #expect(seen.contains(new)) }
    }
}
