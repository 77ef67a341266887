import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// NDEF status, read and write through the simulated field, on the SLIX2 and the ST25DV16K.
@Suite("Type5 read and write")
struct Type5ReadWriteTests {
    static let engine = Type5Engine()

    @Test(
        "A formatted tag holds an empty NDEF: read-write, capacity from the CC",
        arguments: [
            (VirtualTagKind.slix2, 308), (.iso15693_2k, 2036),
        ])
    func emptyFormatted(kind: VirtualTagKind, capacity: Int) async throws {
        let tag = try await Type5Field(kind)
        #expect(try await Self.engine.queryStatus(on: tag.connection) == NDEFStatus(state: .readWrite, capacity: capacity))
        let result = try await Self.engine.readNDEF(on: tag.connection)
        #expect(result.message.isEmpty)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: capacity))
        #expect(tag.meter.statistics.commands == 2)  // one detection read each
    }

    @Test(
        "Write then read back, 1- and 3-byte lengths, up to the full capacity",
        arguments: [
            (VirtualTagKind.slix2, [6, 100, 254, 255, 307, 308]),
            (.iso15693_2k, [6, 254, 255, 1000, 2035, 2036]),
        ])
    func roundTrip(kind: VirtualTagKind, lengths: [Int]) async throws {
        let tag = try await Type5Field(kind)
        for (index, length) in lengths.enumerated() {
            let message = Type5Fixtures.message(length: length, seed: UInt8(index))
            try #require(message.count == length)
            try await Self.engine.writeNDEF(message, on: tag.connection)
            let result = try await Self.engine.readNDEF(on: tag.connection)
            #expect(result.message == message, "\(kind) \(length) B")
            #expect(result.status.messageLength == length)
            #expect(result.status.state == .readWrite)
        }
        // And back to an empty message.
        try await Self.engine.writeNDEF([], on: tag.connection)
        #expect(try await Self.engine.readNDEF(on: tag.connection).message.isEmpty)
    }

    @Test("The memory holds CC, TLV, message and terminator where T5T puts them")
    func layoutOnTheTag() async throws {
        let tag = try await Type5Field(.slix2)
        let message = Type5Fixtures.message(length: 10)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        let memory = try #require(await tag.tag()).blocks.flatMap { $0 }
        #expect(Array(memory[0..<4]) == [0xE1, 0x40, 0x27, 0x01])
        #expect(Array(memory[4..<6]) == [0x03, 0x0A])
        #expect(Array(memory[6..<16]) == message)
        #expect(memory[16] == 0xFE)
    }

    @Test(
        "A message one byte too long is .capacityExceeded and nothing is written",
        arguments: [
            (VirtualTagKind.slix2, 309), (.iso15693_2k, 2037),
        ])
    func capacityExceeded(kind: VirtualTagKind, length: Int) async throws {
        let tag = try await Type5Field(kind)
        let before = await tag.tag()
        await #expect(throws: TagEngineError(.capacityExceeded, "")) {
            try await Self.engine.writeNDEF(Type5Fixtures.message(length: length), on: tag.connection)
        }
        #expect(await tag.tag() == before)
    }

    @Test("Writing the same message again sends no write; a one-byte change writes one block")
    func skipsUnchangedBlocks() async throws {
        let tag = try await Type5Field(.iso15693_2k)
        let message = Type5Fixtures.message(length: 600)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        tag.meter.reset()
        try await Self.engine.writeNDEF(message, on: tag.connection)
        #expect(tag.meter.statistics.commands == 2)  // detection and one read of the covered blocks
        var changed = message
        changed[300] ^= 0xFF
        tag.meter.reset()
        try await Self.engine.writeNDEF(changed, on: tag.connection)
        #expect(tag.meter.statistics.commands == 3)  // detection, one read, one atomic block write
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == changed)
    }

    @Test("A blank tag: status not supported, read and write are .notFormatted", arguments: [VirtualTagKind.slix2, .iso15693_2k])
    func blank(kind: VirtualTagKind) async throws {
        let tag = try await Type5Field(kind, blank: true)
        #expect(try await Self.engine.queryStatus(on: tag.connection) == .notSupported)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await Self.engine.readNDEF(on: tag.connection) }
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await Self.engine.writeNDEF([0xD0, 0, 0], on: tag.connection) }
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await Self.engine.makeReadOnly(on: tag.connection) }
    }

    @Test("NULL TLVs and a proprietary TLV before the NDEF TLV are skipped, and kept by a write")
    func otherTLVs() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0x00, 0x00, 0xFD, 0x03, 0xAA, 0xBB, 0xCC, 0x03, 0x02, 0xD0, 0x00, 0xFE], at: 4)
        let status = try await Self.engine.queryStatus(on: tag.connection)
        #expect(status == NDEFStatus(state: .readWrite, capacity: 316 - 11 - 4, messageLength: 2))
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == [0xD0, 0x00])
        let message = Type5Fixtures.message(length: 40)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        let memory = try #require(await tag.tag()).blocks.flatMap { $0 }
        #expect(Array(memory[4..<11]) == [0x00, 0x00, 0xFD, 0x03, 0xAA, 0xBB, 0xCC])
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == message)
    }

    @Test("A CC area without an NDEF TLV reads as empty and takes a message after the other TLVs")
    func noNDEFTLV() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xFD, 0x01, 0x77, 0xFE], at: 4)
        #expect(try await Self.engine.queryStatus(on: tag.connection) == NDEFStatus(state: .readWrite, capacity: 316 - 7 - 4))
        let message = Type5Fixtures.message(length: 20)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        let memory = try #require(await tag.tag()).blocks.flatMap { $0 }
        #expect(Array(memory[4..<9]) == [0xFD, 0x01, 0x77, 0x03, 0x14])
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == message)
    }

    @Test("The engine works on a connection whose tag is one of two in the field (addressed mode)")
    func twoTags() async throws {
        let field = SimulatedField()
        await field.place(try VirtualTagKind.slix2.make())
        await field.place(try VirtualTagKind.iso15693_2k.make())
        let targets = try await field.targets(matching: .all)
        #expect(targets.count == 2)
        let message = Type5Fixtures.message(length: 50)
        let first = try await field.connect(to: targets[0], meter: AirTimeMeter())
        try await Self.engine.writeNDEF(message, on: first)
        let second = try await field.connect(to: targets[1], meter: AirTimeMeter())
        #expect(try await Self.engine.readNDEF(on: second).message.isEmpty)
        #expect(try await Self.engine.readNDEF(on: first).message == message)
    }

    @Test("The CC's special frame bit puts the option flag on writes; reads and writes are addressed")
    func specialFrame() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xE1, 0x40, 0x27, 0x11], at: 0)
        let quirky = Type5QuirkyConnection(tag.connection)
        let message = Type5Fixtures.message(length: 12)
        try await Self.engine.writeNDEF(message, on: quirky)
        let writes = quirky.frames.filter { $0.count > 1 && $0[1] == 0x21 }
        #expect(!writes.isEmpty)
        #expect(writes.allSatisfy { $0[0] == 0x62 && Array($0[2..<10]) == Type5Fixtures.slix2Wire })
        #expect(quirky.frames.allSatisfy { $0[0] & 0x22 == 0x22 })
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == message)
    }

    @Test("An E2 CC: every command uses the extended form with 16-bit block numbers")
    func extendedCommands() async throws {
        let tag = try await Type5Field(.iso15693_2k)
        let quirky = Type5QuirkyConnection(tag.connection)
        try await Self.engine.writeNDEF(Type5Fixtures.message(length: 30), on: quirky)
        _ = try await Self.engine.readNDEF(on: quirky)
        let codes = Set(quirky.frames.dropFirst().map { $0[1] })
        #expect(codes.isSubset(of: [0x23, 0x31, 0x33]))
        #expect(quirky.frames.first?[1] == 0x23)  // the detection read, before the CC is known
    }

    @Test("A data area filled by another TLV: capacity 0, even an empty message does not fit")
    func noRoom() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xFD, 0xFF, 0x01, 0x34], at: 4)  // 308 bytes: up to the area's end at 316
        #expect(try await Self.engine.queryStatus(on: tag.connection) == NDEFStatus(state: .readWrite, capacity: 0))
        await #expect(throws: TagEngineError(.capacityExceeded, "")) { try await Self.engine.writeNDEF([], on: tag.connection) }
    }
}
