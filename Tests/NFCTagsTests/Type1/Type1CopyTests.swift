import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Copies of Type 1 tags: every block captured; the data blocks restored onto another tag of the
/// same model in the NDEF write's tearing-safe order (NMN cleared first, set last), so a restore
/// cut anywhere leaves the old message, the new one, or "write in progress" — never a mixture.
@Suite struct Type1CopyTests {
    let engine = Type1Engine()
    static let otherUID: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]

    /// A capture of a tag of `model` holding `message`.
    func capture(_ model: Type1Tag.Model, _ message: [UInt8]) async throws -> Type1Capture {
        let source = await Type1Bench(model)
        try await engine.writeNDEF(message, on: try await source.connect())
        let capture = try await engine.capture(on: try await source.connect())
        let stored = try #require(await source.tag)
        #expect(capture.memory == stored.image.memory.bytes, "every block, as the chip holds it")
        #expect(capture.headerROM == [model.headerROM0, model.headerROM1] && capture.uid == stored.uid)
        return capture
    }

    @Test(arguments: Type1Tag.Model.allCases)
    func captureThenRestoreOntoAnotherTag(model: Type1Tag.Model) async throws {
        let message = type1Message(length: model == .topaz96 ? 60 : 300, fill: 0x63)
        let capture = try await capture(model, message)
        let target = await Type1Bench(Type1Tag(model: model, uid: Self.otherUID, blank: true))
        let written = try await engine.restore(capture, on: try await target.connect())
        #expect(written > 0)
        #expect(try await engine.readNDEF(on: try await target.connect()).message == message)
        #expect(await target.tag?.uid == Self.otherUID, "the UID is the chip's own")
        #expect(try await engine.restore(capture, on: try await target.connect()) == 0, "equal blocks are skipped")
    }

    @Test func anotherModelOrALockedTagIsRefused() async throws {
        let capture = try await capture(.topaz512, type1Message(length: 100))
        let small = await Type1Bench(.topaz96)
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.restore(capture, on: try await small.connect()) }
        let locked = await Type1Bench(.topaz512)
        try await engine.writeNDEF(type1Message(length: 20, fill: 0x70), on: try await locked.connect())
        try await engine.makeReadOnly(on: try await locked.connect())
        let before = await locked.tag?.image
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.restore(capture, on: try await locked.connect()) }
        #expect(await locked.tag?.image == before, "refused before anything is written")
    }

    /// Restores cut at every command: the target then reads as its old message, the copied one,
    /// or "write in progress".
    @Test(arguments: FieldFault.TearOutcome.allCases)
    func restoreTornAtEveryCommand(outcome: FieldFault.TearOutcome) async throws {
        let old = type1Message(length: 200, fill: 0x61)
        let new = type1Message(length: 90, fill: 0x62)
        let capture = try await capture(.topaz512, new)
        func armed() async throws -> Type1Bench {
            let bench = await Type1Bench(Type1Tag(model: .topaz512, uid: Self.otherUID))
            try await engine.writeNDEF(old, on: try await bench.connect())
            return bench
        }
        let counting = try await armed()
        let meter = AirTimeMeter()
        _ = try await engine.restore(capture, on: try await counting.connect(meter: meter))
        let count = meter.statistics.commands
        #expect(count >= 4)
        var seen: Set<String> = []
        for command in 1...count {
            let bench = try await armed()
            let connection = try await bench.connect()
            await bench.field.inject(.tear(command: command, outcome: outcome), into: bench.id)
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.restore(capture, on: connection) }
            let reading = try await bench.connect()
            do {
                let message = try await engine.readNDEF(on: reading).message
                #expect(message == old || message == new, "torn at command \(command): a message neither old nor copied")
                seen.insert(message == old ? "old" : "new")
            } catch {
                #expect(error.code == .invalidNDEFArea && error.reason.contains("write in progress"), "command \(command): \(error)")
                seen.insert("in progress")
            }
            _ = try await engine.restore(capture, on: try await bench.connect())
            #expect(try await engine.readNDEF(on: try await bench.connect()).message == new, "command \(command): a new restore recovers")
        }
        #expect(seen.contains("old") && seen.contains("in progress"))
    }
}

/// Block 01h holds NMN, which every restore writes: its lock bit alone refuses the restore.
@Suite struct Type1CopyLockTests {
    @Test func aLockedBlockOneRefusesBeforeAnyWrite() async throws {
        let engine = Type1Engine()
        let source = await Type1Bench(.topaz512)
        try await engine.writeNDEF(type1Message(length: 100, fill: 0x41), on: try await source.connect())
        let capture = try await engine.capture(on: try await source.connect())
        var target = Type1Tag(model: .topaz512, uid: Type1CopyTests.otherUID)
        var image = target.image
        image.memory.bytes[0x70] |= 0x02  // LOCK-0 bit 1: block 01h only
        target = try Type1Tag(image: image)
        let bench = await Type1Bench(target)
        let before = await bench.tag?.image
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.restore(capture, on: try await bench.connect()) }
        #expect(await bench.tag?.image == before, "nothing written")
        let small = await Type1Bench(.topaz96)
        let smallConnection = try await small.connect()
        do {
            _ = try await engine.restore(capture, on: smallConnection)
            Issue.record("a Topaz 512 copy went onto a Topaz 96")
        } catch {
            #expect(error.reason.contains("a Topaz 512 (512 bytes)") && error.reason.contains("a Topaz 96 (120 bytes)"), "\(error)")
        }
    }
}
