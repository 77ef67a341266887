import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Tags that lie: broken capability containers, TLV lengths past the data area or the memory,
/// damaged and truncated answers. Each gives a typed error naming what and where.
@Suite("Type5 malformed tags")
struct Type5MalformedTagTests {
    static let engine = Type5Engine()

    @Test("A CC of another mapping version: read is .invalidCapabilityContainer, status not supported")
    func versionTwo() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xE1, 0x80, 0x27, 0x01], at: 0)
        #expect(try await Self.engine.queryStatus(on: tag.connection) == .notSupported)
        await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await Self.engine.readNDEF(on: tag.connection) }
        await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await Self.engine.writeNDEF([], on: tag.connection) }
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await Self.engine.format(on: tag.connection) }
    }

    @Test("Read access proprietary: status not supported, read .unsupported")
    func proprietaryRead() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xE1, 0x48, 0x27, 0x01], at: 0)
        #expect(try await Self.engine.queryStatus(on: tag.connection) == .notSupported)
        await #expect(throws: TagEngineError(.unsupported, "")) { try await Self.engine.readNDEF(on: tag.connection) }
    }

    @Test("Write access proprietary or RFU: read-only", arguments: [UInt8(0x41), 0x42])
    func writeAccess(byte: UInt8) async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xE1, byte, 0x27, 0x01], at: 0)
        #expect(try await Self.engine.queryStatus(on: tag.connection).state == .readOnly)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await Self.engine.writeNDEF([], on: tag.connection) }
    }

    @Test("An NDEF TLV whose length runs past the data area: .invalidNDEFArea naming the offset")
    func lyingNDEFLength() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0x03, 0xFF, 0x7F, 0xFF], at: 4)
        do {
            _ = try await Self.engine.readNDEF(on: tag.connection)
            Issue.record("read a 32767-byte NDEF TLV in a 312-byte area")
        } catch {
            #expect(error.code == .invalidNDEFArea)
            #expect(error.reason.contains("offset 4"))
        }
        await #expect(throws: TagEngineError(.invalidNDEFArea, "")) { try await Self.engine.queryStatus(on: tag.connection) }
        await #expect(throws: TagEngineError(.invalidNDEFArea, "")) { try await Self.engine.writeNDEF([0xD0, 0, 0], on: tag.connection) }
    }

    @Test("A proprietary TLV running past the area")
    func lyingProprietaryLength() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xFD, 0xFF, 0x10, 0x00], at: 4)
        await #expect(throws: TagEngineError(.invalidNDEFArea, "")) { try await Self.engine.readNDEF(on: tag.connection) }
    }

    @Test("A CC claiming more memory than the tag has: the read past the end is the tag's error 0x10")
    func ccBeyondMemory() async throws {
        let tag = try await Type5Field(.slix2)
        try await tag.poke([0xE1, 0x40, 0xFF, 0x01, 0x03, 0xFF, 0x03, 0x00], at: 0)
        do {
            _ = try await Self.engine.readNDEF(on: tag.connection)
            Issue.record("read 768 bytes from a 320-byte tag")
        } catch {
            #expect(error.code == .tagError)
            #expect(error.tagStatus == [0x01, 0x10])
            #expect(error.reason.contains("Read Multiple Blocks 80–"))
        }
    }

    @Test("A corrupted CC magic in the answer reads as not formatted; a TLV type flipped to the Terminator as an empty message")
    func flippedBits() async throws {
        let tag = try await Type5Field(.slix2)
        try await Self.engine.writeNDEF(Type5Fixtures.message(length: 30), on: tag.connection)
        // Answer: flags, status, E1 … — byte 2 is the magic.
        await tag.field.inject(.corruptResponse(command: 1, .flipBits(byte: 2, mask: 0xFF)), into: tag.id)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await Self.engine.readNDEF(on: tag.connection) }
        // Byte 7 is block 1's first byte, the NDEF TLV's type: 03 ^ FD = FE, the Terminator TLV.
        // NFC Forum Type 5 Tag 1.0 §4.3.3: nothing after a Terminator TLV is read, so the tag
        // holds no NDEF TLV — a formatted tag with an empty message, its whole area free.
        await tag.field.inject(.corruptResponse(command: 1, .flipBits(byte: 7, mask: 0xFD)), into: tag.id)
        let result = try await Self.engine.readNDEF(on: tag.connection)
        #expect(result.message.isEmpty)
        #expect(result.status.state == .readWrite)
        #expect(result.status.messageLength == 0)
        // Untouched answers read the message that was written, with the same capacity.
        let clean = try await Self.engine.readNDEF(on: tag.connection)
        #expect(clean.message == Type5Fixtures.message(length: 30))
        #expect(result.status.capacity == clean.status.capacity)
    }

    @Test("Truncated answers: .unexpectedResponse", arguments: [(1, 3), (1, 0), (2, 10)])
    func truncated(command: Int, length: Int) async throws {
        let tag = try await Type5Field(.iso15693_2k)
        try await Self.engine.writeNDEF(Type5Fixtures.message(length: 300), on: tag.connection)
        let quirky = Type5QuirkyConnection(tag.connection, truncate: (command, length))
        await #expect(throws: TagEngineError(.unexpectedResponse, "")) { try await Self.engine.readNDEF(on: quirky) }
    }

    @Test("A tag that answers with an error flag names the command and the code")
    func errorFlag() async throws {
        let tag = try await Type5Field(.slix2)
        // Lock block 0: the CC write of make-read-only is refused with 0x12 → .readOnly.
        await tag.field.update(tag.id) { tag in
            guard let slix = tag as? ISO15693Tag else { return }
            tag = (try? ISO15693Tag(model: slix.model, uid: slix.uid, blocks: slix.blocks, lockedBlocks: (0..<80).map { $0 == 0 })) ?? slix
        }
        await #expect(throws: TagEngineError(.readOnly, "")) { try await Self.engine.makeReadOnly(on: tag.connection) }
        // A truncated system information answer names the field it cuts.
        do {
            _ = try await Self.engine.identify(on: Type5QuirkyConnection(tag.connection, truncate: (1, 5)))
            Issue.record("accepted 5 bytes of system information")
        } catch {
            #expect(error.code == .unexpectedResponse)
            #expect(error.reason.contains("Get System Information"))
        }
        // An empty answer is not a refusal either.
        let silent = Type5QuirkyConnection(tag.connection, truncate: (1, 0))
        await #expect(throws: TagEngineError(.unexpectedResponse, "")) { try await Self.engine.identify(on: silent) }
    }

    @Test("A target that is not ISO 15693 is .unsupported")
    func notAType5Tag() async throws {
        let field = SimulatedField()
        await field.place(try VirtualTagKind.ntag213.make())
        let target = try #require(try await field.targets(matching: .all).first)
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        await #expect(throws: TagEngineError(.unsupported, "")) { try await Self.engine.readNDEF(on: connection) }
    }
}
