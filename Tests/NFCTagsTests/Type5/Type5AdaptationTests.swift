import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Constrained readers and tags that refuse long reads: the engine sizes reads to the limits,
/// shrinks them when refused, and remembers what it learned for the tag.
@Suite("Type5 adaptation")
struct Type5AdaptationTests {
    static func reader(maxResponse: Int, native: ExchangeLimits.NativeCommands = .all) -> SimulatedReaderConfiguration {
        SimulatedReaderConfiguration(
            limits: ExchangeLimits(
                maxCommandLength: 262, maxResponseLength: maxResponse, extendedLengthAPDUs: false, nativeCommands: native))
    }

    /// A tag holding a message of `length` bytes, with its meter reset.
    private func prepared(_ kind: VirtualTagKind, length: Int, configuration: SimulatedReaderConfiguration = .ideal) async throws -> (
        Type5Field, [UInt8]
    ) {
        let tag = try await Type5Field(kind, configuration: configuration)
        let message = Type5Fixtures.message(length: length)
        try await Type5Engine().writeNDEF(message, on: tag.connection)
        tag.meter.reset()
        return (tag, message)
    }

    @Test("A 64-byte answer buffer: reads of 15 blocks", arguments: [(VirtualTagKind.slix2, 308, 1 + 5), (.iso15693_2k, 1000, 1 + 17)])
    func smallBuffer(kind: VirtualTagKind, length: Int, commands: Int) async throws {
        let (tag, message) = try await prepared(kind, length: length, configuration: Self.reader(maxResponse: 64))
        #expect(try await Type5Engine().readNDEF(on: tag.connection).message == message)
        #expect(tag.meter.statistics.commands == commands)
    }

    /// The Read Multiple Blocks (0x23) a reads-with-status pass sends: (first block, blocks).
    /// With the option flag, ISO/IEC 15693-3 §10.4.4 puts a security status byte before each
    /// block, so an answer of n 4-byte blocks is 1 + 5n bytes and must fit the reader's buffer.
    static func statusReads(from first: Int, to end: Int, buffer: Int) -> [ReadCommand] {
        let perRead = (buffer - 1) / (1 + 4)
        return stride(from: first, to: end, by: perRead).map { ReadCommand(first: $0, count: min(perRead, end - $0)) }
    }

    struct ReadCommand: Hashable, CustomStringConvertible {
        var first: Int, count: Int
        var description: String { "\(first)+\(count)" }
        /// A Read Multiple Blocks frame with the option flag: flags, 0x23, UID, first, count − 1.
        init?(frame: [UInt8]) {
            guard frame.count == 12, frame[1] == 0x23, frame[0] & 0x40 != 0 else { return nil }
            first = Int(frame[10])
            count = Int(frame[11]) + 1
        }
        init(first: Int, count: Int) {
            self.first = first
            self.count = count
        }
    }

    @Test(
        "Reads with the security status count its byte: each answer fits a small buffer, in the fewest commands",
        arguments: [64, 60, 41, 512])
    func statusByteCounted(buffer: Int) async throws {
        let tag = try await Type5Field(.slix2, configuration: Self.reader(maxResponse: buffer))
        // A 200-byte message in its TLV and the terminator: bytes 4–208, blocks 0–51. The write
        // reads them with their status (to find locked blocks): blocks 0–3, then the rest.
        let writing = Type5QuirkyConnection(tag.connection)
        try await Type5Engine().writeNDEF(Type5Fixtures.message(length: 200), on: writing)
        let writeReads = writing.frames.compactMap(ReadCommand.init(frame:))
        #expect(writeReads == [ReadCommand(first: 0, count: 4)] + Self.statusReads(from: 4, to: 52, buffer: buffer))
        // A dump reads all 80 blocks with their status.
        let dumping = Type5QuirkyConnection(tag.connection)
        let dump = try await Type5Engine().memoryDump(on: dumping)
        #expect(dump.isComplete)
        #expect(
            dumping.frames.compactMap(ReadCommand.init(frame:)) == [ReadCommand(first: 0, count: 4)]
                + Self.statusReads(from: 4, to: 80, buffer: buffer))
        #expect(writing.refused == 0 && dumping.refused == 0)
    }

    @Test("A PC/SC-style reader that reads 16 bytes at a time")
    func pseudoAPDUReads() async throws {
        let (tag, message) = try await prepared(
            .slix2, length: 100, configuration: Self.reader(maxResponse: 258, native: .readAndWriteOnly(readLength: 16)))
        #expect(try await Type5Engine().readNDEF(on: tag.connection).message == message)
        // 4 + 2 + 100 bytes = blocks 0–26: blocks 0–3, then 23 blocks in reads of 4.
        #expect(tag.meter.statistics.commands == 1 + 6)
    }

    @Test("A tag that refuses more than 32 blocks: the read shrinks, and the next read starts small")
    func learnsACap() async throws {
        let (tag, message) = try await prepared(.iso15693_2k, length: 2036)
        let engine = Type5Engine()
        let quirky = Type5QuirkyConnection(tag.connection, multiBlockCap: 32)
        #expect(try await engine.readNDEF(on: quirky).message == message)
        #expect(quirky.refused > 0)
        let again = Type5QuirkyConnection(tag.connection, multiBlockCap: 32)
        #expect(try await engine.readNDEF(on: again).message == message)
        #expect(again.refused == 0)
        // 508 blocks after the first four, in reads of at most 31: 17 reads, plus blocks 0–3.
        #expect(again.commands <= 1 + 17)
    }

    @Test("A tag without Read Multiple Blocks (error 0x01, or silence): block by block", arguments: [UInt8?.some(0x01), nil])
    func noMultipleBlockRead(refusal: UInt8?) async throws {
        let (tag, message) = try await prepared(.slix2, length: 40)
        let engine = Type5Engine()
        let quirky = Type5QuirkyConnection(tag.connection, multiBlockCap: 0, refusal: refusal)
        #expect(try await engine.readNDEF(on: quirky).message == message)
        let again = Type5QuirkyConnection(tag.connection, multiBlockCap: 0, refusal: refusal)
        #expect(try await engine.readNDEF(on: again).message == message)
        #expect(again.refused == 0)
        #expect(again.commands == (4 + 2 + 40 + 3) / 4)
    }

    @Test("A reader that claims more than it carries: frameTooLong shrinks the read")
    func frameTooLong() async throws {
        let (tag, message) = try await prepared(.iso15693_2k, length: 1000, configuration: Self.reader(maxResponse: 300))
        let ideal = SimulatedReaderConfiguration.ideal.limits
        let quirky = Type5QuirkyConnection(tag.connection, claimedLimits: ideal)
        #expect(try await Type5Engine().readNDEF(on: quirky).message == message)
    }

    @Test("A damaged answer (CRC error) is asked for again")
    func crcErrorRetried() async throws {
        let (tag, message) = try await prepared(.slix2, length: 200)
        await tag.field.inject(.corruptResponse(command: 2, .crcError), into: tag.id)
        #expect(try await Type5Engine().readNDEF(on: tag.connection).message == message)
        #expect(tag.meter.statistics.commands == 3)
    }

    @Test("A write whose answer is damaged is sent again and completes")
    func crcErrorOnWrite() async throws {
        let (tag, _) = try await prepared(.slix2, length: 20)
        let message = Type5Fixtures.message(length: 60, seed: 3)
        await tag.field.inject(.corruptResponse(command: 4, .crcError), into: tag.id)
        try await Type5Engine().writeNDEF(message, on: tag.connection)
        #expect(try await Type5Engine().readNDEF(on: tag.connection).message == message)
    }

    @Test("A single-block read that times out is a .timeout error")
    func timeout() async throws {
        let (tag, _) = try await prepared(.slix2, length: 20)
        await tag.field.inject(.delayResponse(command: 1, by: .seconds(1)), into: tag.id)
        await #expect(throws: TagEngineError(.timeout, "")) {
            try await Type5Engine(maximumBlocksPerRead: 1).readNDEF(on: tag.connection)
        }
    }
}
