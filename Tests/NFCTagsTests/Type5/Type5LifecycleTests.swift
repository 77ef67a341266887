import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Identify, format, make read-only and dump through the simulated field.
@Suite("Type5 lifecycle")
struct Type5LifecycleTests {
    static let engine = Type5Engine()

    @Test("Identify: model from the manufacturer code, IC reference and size")
    func identify() async throws {
        let slix2 = try await Type5Field(.slix2)
        let identity = try await Self.engine.identify(on: slix2.connection)
        #expect(identity.family == .type5)
        #expect(identity.model == "ICODE SLIX2")
        #expect(identity.memorySize == 320)
        #expect(identity.details.map(\.0) == ["UID", "manufacturer", "IC reference", "blocks", "DSFID", "AFI"])
        #expect(identity.details.first { $0.0 == "blocks" }?.1 == "80 × 4")
        #expect(identity.details.first { $0.0 == "manufacturer" }?.1 == "NXP Semiconductors (04)")
        #expect(slix2.meter.statistics.commands == 1)

        let st = try await Type5Field(.iso15693_2k)
        let stIdentity = try await Self.engine.identify(on: st.connection)
        #expect(stIdentity.model == "ST25DV16K")
        #expect(stIdentity.memorySize == 2048)
        #expect(st.meter.statistics.commands == 2)  // the basic form lacks the memory size
    }

    @Test("Format a blank SLIX2: 4-byte CC with MBREAD and LOCK BLOCK, empty NDEF TLV")
    func formatSLIX2() async throws {
        let tag = try await Type5Field(.slix2, blank: true)
        try await Self.engine.format(on: tag.connection)
        let memory = try #require(await tag.tag()).blocks.flatMap { $0 }
        #expect(Array(memory[0..<8]) == [0xE1, 0x40, 0x27, 0x09, 0x03, 0x00, 0xFE, 0x00])
        #expect(try await Self.engine.queryStatus(on: tag.connection) == NDEFStatus(state: .readWrite, capacity: 308))
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await Self.engine.format(on: tag.connection) }
    }

    @Test("Format a blank ST25DV16K: 8-byte E2 CC (2040-byte area), empty NDEF TLV")
    func formatST25DV() async throws {
        let tag = try await Type5Field(.iso15693_2k, blank: true)
        try await Self.engine.format(on: tag.connection)
        let memory = try #require(await tag.tag()).blocks.flatMap { $0 }
        #expect(Array(memory[0..<12]) == [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0xFF, 0x03, 0x00, 0xFE, 0x00])
        let message = Type5Fixtures.message(length: 2036)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        #expect(try await Self.engine.readNDEF(on: tag.connection).message == message)
    }

    @Test("A formatted tag refuses to be formatted again", arguments: [VirtualTagKind.slix2, .iso15693_2k])
    func alreadyFormatted(kind: VirtualTagKind) async throws {
        let tag = try await Type5Field(kind)
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await Self.engine.format(on: tag.connection) }
    }

    @Test("Make read-only with Lock Block: CC write access 11, every block of the area and the CC locked")
    func readOnlyWithLocks() async throws {
        let tag = try await Type5Field(.slix2, blank: true)
        try await Self.engine.format(on: tag.connection)
        let message = Type5Fixtures.message(length: 80)
        try await Self.engine.writeNDEF(message, on: tag.connection)
        try await Self.engine.makeReadOnly(on: tag.connection)
        let state = try #require(await tag.tag())
        #expect(state.blocks[0] == [0xE1, 0x43, 0x27, 0x09])
        #expect(state.lockedBlocks[0..<79].allSatisfy { $0 })
        #expect(!state.lockedBlocks[79])  // the counter block is outside the data area
        let result = try await Self.engine.readNDEF(on: tag.connection)
        #expect(result.message == message)
        #expect(result.status.state == .readOnly)
        await #expect(throws: TagEngineError(.readOnly, "")) {
            try await Self.engine.writeNDEF(Type5Fixtures.message(length: 10), on: tag.connection)
        }
        // Again: nothing left to do, and no error.
        try await Self.engine.makeReadOnly(on: tag.connection)
    }

    @Test(
        "Make read-only without Lock Block (ST25DV16K, and the SLIX2 whose CC does not announce it): the CC alone",
        arguments: [VirtualTagKind.iso15693_2k, .slix2])
    func readOnlyByCC(kind: VirtualTagKind) async throws {
        let tag = try await Type5Field(kind)
        try await Self.engine.makeReadOnly(on: tag.connection)
        let state = try #require(await tag.tag())
        #expect(state.blocks[0][1] == 0x43)
        #expect(!state.lockedBlocks.contains(true))
        #expect(try await Self.engine.queryStatus(on: tag.connection).state == .readOnly)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await Self.engine.writeNDEF([0xD0, 0, 0], on: tag.connection) }
    }

    @Test("A locked length block makes the status read-only and a write .readOnly, before any write")
    func lockedBlock() async throws {
        let tag = try await Type5Field(.slix2)
        await tag.field.update(tag.id) { tag in
            guard var slix = tag as? ISO15693Tag else { return }
            slix = (try? ISO15693Tag(model: slix.model, uid: slix.uid, blocks: slix.blocks, lockedBlocks: (0..<80).map { $0 == 1 })) ?? slix
            tag = slix
        }
        #expect(try await Self.engine.queryStatus(on: tag.connection).state == .readOnly)
        tag.meter.reset()
        await #expect(throws: TagEngineError(.readOnly, "")) { try await Self.engine.writeNDEF([0xD0, 0, 0], on: tag.connection) }
        #expect(tag.meter.statistics.commands == 1)
    }

    @Test("A locked block inside the new message is found before writing")
    func lockedBodyBlock() async throws {
        let tag = try await Type5Field(.slix2)
        await tag.field.update(tag.id) { tag in
            guard let slix = tag as? ISO15693Tag else { return }
            tag = (try? ISO15693Tag(model: slix.model, uid: slix.uid, blocks: slix.blocks, lockedBlocks: (0..<80).map { $0 == 20 })) ?? slix
        }
        let before = await tag.tag()
        await #expect(throws: TagEngineError(.readOnly, "")) {
            try await Self.engine.writeNDEF(Type5Fixtures.message(length: 200), on: tag.connection)
        }
        #expect(await tag.tag() == before)
    }

    @Test("Dump: every block with its lock state", arguments: [(VirtualTagKind.slix2, 80), (.iso15693_2k, 512)])
    func dump(kind: VirtualTagKind, blocks: Int) async throws {
        let tag = try await Type5Field(kind)
        let rows = try await Self.engine.dump(on: tag.connection)
        #expect(rows.count == blocks)
        #expect(rows.first?.0 == "block 0")
        #expect(rows.allSatisfy { $0.1.count == 4 })
        let memory = try #require(await tag.tag()).blocks
        #expect(rows.map(\.1) == memory)
    }

    @Test("Dump marks locked blocks")
    func dumpLocked() async throws {
        let tag = try await Type5Field(.slix2, blank: true)
        try await Self.engine.format(on: tag.connection)
        try await Self.engine.makeReadOnly(on: tag.connection)
        let rows = try await Self.engine.dump(on: tag.connection)
        #expect(rows[0].0 == "block 0 (locked)")
        #expect(rows[79].0 == "block 79")
    }
}
