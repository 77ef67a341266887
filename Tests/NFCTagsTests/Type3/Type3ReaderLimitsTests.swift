import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Readers that carry less than a FeliCa frame: the engine sizes its commands to fit.
@Suite struct Type3ReaderLimitsTests {
    let engine = Type3Engine()
    typealias F = Type3Frames

    static func reader(command: Int, response: Int, native: ExchangeLimits.NativeCommands = .all) -> SimulatedReaderConfiguration {
        SimulatedReaderConfiguration(
            limits: ExchangeLimits(
                maxCommandLength: command, maxResponseLength: response, extendedLengthAPDUs: false, nativeCommands: native)
        )
    }

    @Test func aSmallAnswerBufferMeansFewerBlocksPerRead() async throws {
        // 60 B answers: 12 + 16·3.
        let bench = try await Type3Bench(.felicaLiteS, configuration: Self.reader(command: 64, response: 60))
        let message = F.message(length: 208)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let meter = AirTimeMeter()
        #expect(try await engine.readNDEF(on: try await bench.connect(meter: meter)).message == message)
        // [0, 1, 88], then 12 blocks by three.
        #expect(meter.statistics.commands == 5)
    }

    @Test func aStandardCardWithASmallBufferStillReadsAndWrites() async throws {
        let bench = try await Type3Bench(.felica, configuration: Self.reader(command: 70, response: 80))
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 + 1) }
        let meter = AirTimeMeter()
        try await engine.writeNDEF(message, on: try await bench.connect(meter: meter))
        // Writes of ⌊(70 − 13) / 18⌋ = 3 blocks: 19 blocks → 7 writes, plus 2 attribute writes;
        // reads of ⌊(80 − 12) / 16⌋ = 4 blocks: 19 blocks → 5 reads, plus Polling and block 0.
        #expect(meter.statistics.commands == 2 + 5 + 9)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == message)
    }

    @Test func pseudoAPDUReadersGetContiguousOneBlockWrites() async throws {
        let bench = try await Type3Bench(
            .felicaLiteS, configuration: Self.reader(command: 300, response: 300, native: .readAndWriteOnly(readLength: 32)))
        let message = F.message(length: 100)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let meter = AirTimeMeter()
        #expect(try await engine.readNDEF(on: try await bench.connect(meter: meter)).message == message)
        // [0, 1], [88], [2, 3], [4, 5], [6, 7].
        #expect(meter.statistics.commands == 5)
    }

    @Test func aReaderThatCannotCarryOneBlockIsUnsupported() async throws {
        let bench = try await Type3Bench(.felicaLiteS, configuration: Self.reader(command: 64, response: 27))
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.readNDEF(on: try await bench.connect()) }

        let writes = try await Type3Bench(.felicaLiteS, configuration: Self.reader(command: 30, response: 300))
        #expect(try await engine.queryStatus(on: try await writes.connect()).state == .readWrite)
        await #expect(throws: TagEngineError(.unsupported, "")) {
            try await engine.writeNDEF([0xD0, 0, 0], on: try await writes.connect())
        }
    }

    @Test(arguments: [1, 2, 3, 4, 100])
    func theCapBoundsEveryRead(cap: Int) async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let message = F.message(length: 208)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let meter = AirTimeMeter()
        let result = try await Type3Engine(maximumBlocksPerRead: cap).readNDEF(on: try await bench.connect(meter: meter))
        #expect(result.message == message)
        let perRead = min(cap, 4)
        #expect(meter.statistics.commands == (15 + perRead - 1) / perRead)
    }
}
