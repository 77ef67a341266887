import NFCSimulator
import NFCTransport
import Testing

@testable import NFCTags

@Suite struct Type1EngineTests {
    let engine = Type1Engine()

    @Test(arguments: [Type1Tag.Model.topaz96, .topaz512])
    func aFactoryTagIsEmptyAndWritable(model: Type1Tag.Model) async throws {
        let bench = await Type1Bench(model)
        let connection = try await bench.connect()
        #expect(TagFamily(connection.target) == .type1)
        let status = try await engine.queryStatus(on: connection)
        // Topaz 96: 92 data bytes less the TLV header; Topaz 512: 476 less the Lock and Memory
        // Control TLVs (10) and a 4-byte TLV header.
        #expect(status == NDEFStatus(state: .readWrite, capacity: model == .topaz96 ? 90 : 462, messageLength: 0))
        #expect(try await engine.readNDEF(on: connection).message.isEmpty)
        let identity = try await engine.identify(on: connection)
        #expect(identity.family == .type1)
        #expect(identity.memorySize == (model == .topaz96 ? 120 : 512))
        #expect(identity.model.hasPrefix(model == .topaz96 ? "Topaz 96" : "Topaz 512"))
    }

    @Test(arguments: [(Type1Tag.Model.topaz96, 90), (.topaz512, 40), (.topaz512, 200), (.topaz512, 462)])
    func writeThenRead(model: Type1Tag.Model, length: Int) async throws {
        let bench = await Type1Bench(model)
        let message = type1Message(length: length)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let result = try await engine.readNDEF(on: try await bench.connect())
        #expect(result.message == message)
        #expect(result.status.messageLength == length)
        // The NDEF TLV never touches the reserved and lock blocks 0Dh–0Fh.
        let tag = try #require(await bench.tag)
        #expect(tag.block(0x0D) == [UInt8](repeating: 0, count: 8))
        #expect(tag.block(0x0E) == Type1Tag(model: model).block(0x0E))
        #expect(tag.memory[8] == 0xE1)
    }

    @Test func aMessageTooLargeIsRefusedBeforeAnyWrite() async throws {
        let bench = await Type1Bench(.topaz96)
        let meter = AirTimeMeter()
        await #expect(throws: TagEngineError(.capacityExceeded, "")) {
            try await engine.writeNDEF(type1Message(length: 91), on: try await bench.connect(meter: meter))
        }
        #expect(meter.statistics.commands == 1)  // RALL
    }

    @Test func writingTheSameMessageAgainWritesNothing() async throws {
        let bench = await Type1Bench(.topaz512)
        let message = type1Message(length: 300)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let meter = AirTimeMeter()
        try await engine.writeNDEF(message, on: try await bench.connect(meter: meter))
        // RALL, then the blocks of segments 1–2 the message reaches (RSEG 1, READ8s in 2), no writes.
        let tag = try #require(await bench.tag)
        #expect(tag.memory[8] == 0xE1)
        #expect(meter.statistics.commands < 10)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == message)
    }

    /// The write order: NMN 00, the data in address order, NMN E1 — WRITE-NE where a byte only
    /// gains bits. A fresh Topaz 96 and a 10-byte message: bytes 13–24 change.
    @Test func theWriteProcedureFramesOnATopaz96() async throws {
        var tag = Type1Tag(model: .topaz96)
        tag.powerOn()
        _ = tag.activate(context: ExchangeContext())
        let uid = tag.identifier
        let message = type1Message(length: 10, fill: 0x7A)
        let (frames, finished) = try Type1ByHand.write(message, on: &tag)
        guard finished else {
            Issue.record("the write did not finish")
            return
        }
        #expect(frames.first == [0x00, 0x00, 0x00] + uid)  // RALL
        #expect(frames[1] == [0x53, 0x08, 0x00] + uid)  // WRITE-E NMN 00
        #expect(frames.last == [0x1A, 0x08, 0xE1] + uid)  // WRITE-NE NMN E1
        let addresses = frames.dropFirst(2).dropLast().map { Int($0[1]) }
        #expect(addresses == addresses.sorted())
        #expect(tag.memory[13] == 10)
        #expect(Array(tag.memory[14..<24]) == message)
        #expect(tag.memory[24] == 0xFE)
    }

    @Test(arguments: [Type1Tag.Model.topaz96, .topaz512])
    func formatABlankTag(model: Type1Tag.Model) async throws {
        let bench = await Type1Bench(model, blank: true)
        #expect(try await engine.queryStatus(on: try await bench.connect()) == .notSupported)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await engine.readNDEF(on: try await bench.connect()) }
        try await engine.format(on: try await bench.connect())
        let formatted = try #require(await bench.tag)
        #expect(formatted.memory == Type1Tag(model: model).memory)
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await engine.format(on: try await bench.connect()) }
        try await engine.writeNDEF(type1Message(length: 50), on: try await bench.connect())
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == type1Message(length: 50))
    }

    @Test(arguments: [Type1Tag.Model.topaz96, .topaz512])
    func makeReadOnlySetsRWAAndEveryLockBit(model: Type1Tag.Model) async throws {
        let bench = await Type1Bench(model)
        try await engine.writeNDEF(type1Message(length: 30), on: try await bench.connect())
        try await engine.makeReadOnly(on: try await bench.connect())
        let tag = try #require(await bench.tag)
        #expect(tag.memory[11] == 0x0F)
        #expect((1...0x0C).allSatisfy { tag.isLocked(block: $0) })
        if model == .topaz512 { #expect((0x10..<0x40).allSatisfy { tag.isLocked(block: $0) }) }
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection).state == .readOnly)
        #expect(try await engine.readNDEF(on: connection).message == type1Message(length: 30))
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.writeNDEF([], on: try await bench.connect()) }
        // A second lock finds nothing to do.
        let meter = AirTimeMeter()
        try await engine.makeReadOnly(on: try await bench.connect(meter: meter))
        #expect(meter.statistics.commands <= 2)
    }

    @Test func aLockedBlockTheMessageNeedsIsNamed() async throws {
        var tag = Type1Tag(model: .topaz96)
        tag.powerOn()
        _ = tag.activate(context: ExchangeContext())
        _ = tag.respond(to: [0x1A, 0x70, 0x08] + tag.identifier, context: ExchangeContext())  // lock block 03h
        let bench = await Type1Bench(tag)
        try await engine.writeNDEF(type1Message(length: 8), on: try await bench.connect())  // blocks 01h–02h only
        await #expect(throws: TagEngineError(.readOnly, "")) {
            try await engine.writeNDEF(type1Message(length: 30), on: try await bench.connect())
        }
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == type1Message(length: 8))
    }

    @Test func malformedAreasGetTypedErrors() async throws {
        // NMN E1 but version 2.0.
        var tag = Type1Tag(model: .topaz96)
        tag.powerOn()
        _ = tag.activate(context: ExchangeContext())
        _ = tag.respond(to: [0x53, 0x09, 0x20] + tag.identifier, context: ExchangeContext())
        await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) {
            try await engine.readNDEF(on: try await Type1Bench(tag).connect())
        }
        // An NDEF TLV longer than the data area.
        var long = Type1Tag(model: .topaz96)
        long.powerOn()
        _ = long.activate(context: ExchangeContext())
        _ = long.respond(to: [0x53, 0x0D, 0xF0] + long.identifier, context: ExchangeContext())
        await #expect(throws: TagEngineError(.invalidNDEFArea, "")) {
            try await engine.readNDEF(on: try await Type1Bench(long).connect())
        }
    }

    @Test func dumpReadsEveryBlock() async throws {
        let bench = await Type1Bench(.topaz512)
        let meter = AirTimeMeter()
        let rows = try await engine.dump(on: try await bench.connect(meter: meter))
        #expect(rows.count == 65)
        #expect(rows[0].1 == [0x12, 0x48])
        #expect(rows[2].0 == "block 01h")
        #expect(rows.dropFirst().allSatisfy { $0.1.count == 8 })
        // RALL, READ8 of block 0Fh, RSEG 1–3.
        #expect(meter.statistics.commands == 5)
    }

    @Test func aReaderLimitedToStorageAPDUsCannotReachIt() async throws {
        let bench = await Type1Bench(.topaz96, configuration: .type2ReadAndWriteOnly)
        await #expect(throws: TagEngineError.self) { try await engine.readNDEF(on: try await bench.connect()) }
    }
}

/// The cases a review found: formats that must not overwrite, cut formats, tags without the
/// factory TLVs, and readers too small for the 8-byte commands.
@Suite struct Type1EdgeTests {
    let engine = Type1Engine()

    /// A Topaz whose bytes from 8 on are `bytes`, activated.
    static func topaz(_ model: Type1Tag.Model, data bytes: [UInt8]) throws -> Type1Tag {
        var memory = Type1Tag(model: model, blank: true).memory
        memory.replaceSubrange(8..<(8 + bytes.count), with: bytes)
        return try Type1Tag(image: Type1Tag.Image(model: model, memory: HexBytes(memory)))
    }

    @Test func formatDoesNotOverwriteACapabilityContainerOfAnotherVersion() async throws {
        let tag = try Self.topaz(.topaz96, data: [0xE1, 0x20, 0x0E, 0x00, 0x03, 0x00, 0xFE])
        let bench = await Type1Bench(tag)
        await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await engine.format(on: try await bench.connect()) }
        #expect(await bench.tag?.memory == tag.memory)
    }

    /// Cut at every command, a format leaves a tag that is still blank (and formats again) or
    /// one whose next write completes it — never one stuck between the two.
    @Test(arguments: [Type1Tag.Model.topaz96, .topaz512], FieldFault.TearOutcome.allCases)
    func aFormatCutAtEveryCommandCanBeCompleted(model: Type1Tag.Model, outcome: FieldFault.TearOutcome) async throws {
        let counting = await Type1Bench(model, blank: true)
        let meter = AirTimeMeter()
        try await engine.format(on: try await counting.connect(meter: meter))
        let count = meter.statistics.commands
        #expect(count >= 3)
        let message = type1Message(length: 20)
        for command in 1...count {
            let bench = await Type1Bench(model, blank: true)
            let connection = try await bench.connect()
            await bench.field.inject(.tear(command: command, outcome: outcome), into: bench.id)
            await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.format(on: connection) }
            let status = try await engine.queryStatus(on: try await bench.connect())
            if status.state == .notSupported {
                try await engine.format(on: try await bench.connect())
            }
            try await engine.writeNDEF(message, on: try await bench.connect())
            #expect(try await engine.readNDEF(on: try await bench.connect()).message == message, "cut at command \(command)")
        }
    }

    /// A Topaz 512 without Lock and Memory Control TLVs: the message starts at byte 12, in block
    /// 01h with the CC, which is written byte by byte; make read-only still sets LOCK-2…7.
    @Test func aTopaz512WithoutTheFactoryTLVs() async throws {
        var tag = try Self.topaz(.topaz512, data: [0xE1, 0x10, 0x3F, 0x00, 0x03, 0x00, 0xFE])
        tag.powerOn()
        _ = tag.activate(context: ExchangeContext())
        let message = type1Message(length: 200)
        let (frames, _) = try Type1ByHand.write(message, on: &tag)
        #expect(frames.allSatisfy { !([0x54, 0x1B].contains($0[0]) && $0[1] == 0x01) }, "an 8-byte write to block 01h")
        #expect(frames.contains { [0x54, 0x1B].contains($0[0]) && $0[1] == 0x10 })
        let bench = await Type1Bench(tag)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == message)
        try await engine.makeReadOnly(on: try await bench.connect())
        let locked = try #require(await bench.tag)
        #expect((0x10..<0x40).allSatisfy { locked.isLocked(block: $0) })
    }

    @Test func aReaderTooSmallForTheBlockCommandsIsRefusedBeforeAnyWrite() async throws {
        let small = SimulatedReaderConfiguration(
            limits: ExchangeLimits(maxCommandLength: 7, maxResponseLength: 253, extendedLengthAPDUs: false, nativeCommands: .all))
        let bench = await Type1Bench(Type1Tag(model: .topaz512), configuration: small)
        let before = try #require(await bench.tag).memory
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await engine.writeNDEF(type1Message(length: 300), on: try await bench.connect())
        }
        #expect(await bench.tag?.memory == before)
        // A message within blocks 01h–0Ch needs only the 7-byte commands.
        try await engine.writeNDEF(type1Message(length: 40), on: try await bench.connect())
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == type1Message(length: 40))
    }
}

/// Runs the engine's write by hand against a tag held by value, answer by answer.
enum Type1ByHand {
    /// The frames the write sent, and whether it finished.
    static func write(_ message: [UInt8], on tag: inout Type1Tag) throws(TagEngineError) -> (frames: [[UInt8]], finished: Bool) {
        let target = TargetInfo(handle: 1, identifier: tag.identifier, parameters: tag.parameters)
        var operation = try Type1Operation(
            Type1WriteProcedure(message: message), target: target, limits: SimulatedReaderConfiguration.ideal.limits)
        var frames: [[UInt8]] = []
        var step = try operation.start()
        while case .transceive(let frame, _) = step {
            frames.append(frame)
            let answer = tag.respond(to: frame, context: ExchangeContext()).transceivedBytes
            step = try operation.resume(with: answer.map { .success($0) } ?? .failure(TransportError(.timeout, "mute")))
        }
        if case .done = step { return (frames, true) }
        return (frames, false)
    }
}
