import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Writes cut at every command, or the tag taken away after every command: afterwards the tag
/// reads as the old message, the new one, or "write in progress" (NMN 00h) — never anything else
/// — and a new write recovers it (T1TOP §6.4.2).
@Suite struct Type1TearingTests {
    let engine = Type1Engine()

    enum Seen: Hashable { case old, new, inProgress }

    static let cases: [(Type1Tag.Model, Int, Int)] = [(.topaz96, 40, 80), (.topaz512, 60, 400), (.topaz512, 400, 100)]

    func commandCount(_ model: Type1Tag.Model, old: [UInt8], new: [UInt8]) async throws -> Int {
        let bench = await Type1Bench(model)
        try await engine.writeNDEF(old, on: try await bench.connect())
        let meter = AirTimeMeter()
        try await engine.writeNDEF(new, on: try await bench.connect(meter: meter))
        return meter.statistics.commands
    }

    func armed(_ model: Type1Tag.Model, old: [UInt8], _ fault: FieldFault) async throws -> (Type1Bench, any TagConnection) {
        let bench = await Type1Bench(model)
        try await engine.writeNDEF(old, on: try await bench.connect())
        let connection = try await bench.connect()
        await bench.field.inject(fault, into: bench.id)
        return (bench, connection)
    }

    func reread(_ bench: Type1Bench, old: [UInt8], new: [UInt8], after what: String) async throws -> Seen {
        let connection = try await bench.connect()
        let seen: Seen
        do {
            let message = try await engine.readNDEF(on: connection).message
            switch message {
            case old: seen = .old
            case new: seen = .new
            default:
                Issue.record("\(what): the tag reads as a \(message.count) B message that is neither old nor new")
                return .old
            }
        } catch {
            #expect(error.code == .invalidNDEFArea, "\(what): \(error)")
            #expect(error.reason.contains("write in progress"), "\(what): \(error)")
            #expect(try await engine.queryStatus(on: connection).messageLength == 0)
            seen = .inProgress
        }
        try await engine.writeNDEF(new, on: connection)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == new, "\(what): recovery")
        return seen
    }

    @Test(arguments: cases, FieldFault.TearOutcome.allCases)
    func tearAtEveryCommand(tagCase: (Type1Tag.Model, Int, Int), outcome: FieldFault.TearOutcome) async throws {
        let (model, oldLength, newLength) = tagCase
        let old = type1Message(length: oldLength, fill: 0x61)
        let new = type1Message(length: newLength, fill: 0x62)
        let count = try await commandCount(model, old: old, new: new)
        #expect(count >= 4)
        var seen: Set<Seen> = []
        for command in 1...count {
            let (bench, connection) = try await armed(model, old: old, .tear(command: command, outcome: outcome))
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.writeNDEF(new, on: connection) }
            seen.insert(try await reread(bench, old: old, new: new, after: "\(model) torn at command \(command) (\(outcome))"))
        }
        #expect(seen.contains(.old))
        #expect(seen.contains(.inProgress))
        if outcome == .newData { #expect(seen.contains(.new)) }
    }

    @Test(arguments: cases)
    func removedAfterEveryCommand(tagCase: (Type1Tag.Model, Int, Int)) async throws {
        let (model, oldLength, newLength) = tagCase
        let old = type1Message(length: oldLength, fill: 0x61)
        let new = type1Message(length: newLength, fill: 0x62)
        let count = try await commandCount(model, old: old, new: new)
        var seen: Set<Seen> = []
        for answered in 0..<count {
            let (bench, connection) = try await armed(model, old: old, .removeAfterCommands(answered))
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.writeNDEF(new, on: connection) }
            seen.insert(try await reread(bench, old: old, new: new, after: "\(model) removed after \(answered) commands"))
        }
        #expect(seen == [.old, .inProgress])
    }
}
