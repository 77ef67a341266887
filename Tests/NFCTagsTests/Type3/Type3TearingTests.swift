import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Writes cut at every command: afterwards the tag reads as the old message, the new one, an
/// empty one, or "write in progress" — never anything else — and a new write recovers it.
@Suite struct Type3TearingTests {
    let engine = Type3Engine()
    typealias F = Type3Frames

    let old = F.message(length: 40, fill: 0x61)
    let new = F.message(length: 120, fill: 0x62)

    enum Seen: Hashable { case old, new, empty, inProgress }

    /// The commands a full write of `new` over `old` takes.
    func commandCount(_ kind: VirtualTagKind) async throws -> Int {
        let bench = try await Type3Bench(kind)
        try await engine.writeNDEF(old, on: try await bench.connect())
        let meter = AirTimeMeter()
        try await engine.writeNDEF(new, on: try await bench.connect(meter: meter))
        return meter.statistics.commands
    }

    /// A card holding `old`, connected, with a fault armed for the next write.
    func armed(_ kind: VirtualTagKind, _ fault: FieldFault) async throws -> (Type3Bench, any TagConnection) {
        let bench = try await Type3Bench(kind)
        try await engine.writeNDEF(old, on: try await bench.connect())
        let connection = try await bench.connect()
        await bench.field.inject(fault, into: bench.id)
        return (bench, connection)
    }

    /// Re-reads the card after it was put back, classifies what it holds, then checks a new write.
    func reread(_ bench: Type3Bench, after what: String) async throws -> Seen {
        let connection = try await bench.connect()
        let seen: Seen
        do {
            let message = try await engine.readNDEF(on: connection).message
            switch message {
            case old: seen = .old
            case new: seen = .new
            case []: seen = .empty
            default:
                Issue.record("\(what): the card reads as a \(message.count) B message that is neither old nor new")
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

    @Test(arguments: [VirtualTagKind.felicaLiteS, .felica], FieldFault.TearOutcome.allCases)
    func tearAtEveryCommand(kind: VirtualTagKind, outcome: FieldFault.TearOutcome) async throws {
        let count = try await commandCount(kind)
        #expect(count >= 5)
        var seen: Set<Seen> = []
        for command in 1...count {
            let (bench, connection) = try await armed(kind, .tear(command: command, outcome: outcome))
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.writeNDEF(new, on: connection) }
            seen.insert(try await reread(bench, after: "\(kind) torn at command \(command) (\(outcome))"))
        }
        #expect(seen.contains(.old))
        #expect(seen.contains(.inProgress))
        if outcome == .newData { #expect(seen.contains(.new)) }
    }

    @Test(arguments: [VirtualTagKind.felicaLiteS, .felica])
    func removedAfterEveryCommand(kind: VirtualTagKind) async throws {
        let count = try await commandCount(kind)
        var seen: Set<Seen> = []
        for answered in 0..<count {
            let (bench, connection) = try await armed(kind, .removeAfterCommands(answered))
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.writeNDEF(new, on: connection) }
            seen.insert(try await reread(bench, after: "\(kind) removed after \(answered) commands"))
        }
        #expect(seen == [.old, .inProgress])
    }

    @Test func writingEmptyOverAMessageIsOneAtomicBlockWrite() async throws {
        let (bench, connection) = try await armed(.felicaLiteS, .tear(command: 2, outcome: .oldData))
        await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.writeNDEF([], on: connection) }
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == old)
        try await engine.writeNDEF([], on: try await bench.connect())
        #expect(try await engine.readNDEF(on: try await bench.connect()).message.isEmpty)
    }
}
