import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Readers that carry less than the ideal one: the engine adapts its reads and stays correct.
@Suite struct Type2ConstrainedReaderTests {
    @Test(arguments: [8, 12, 20, 64, 262])
    func smallAnswerBuffersGetShorterFastReads(bytes: Int) async throws {
        let bench = try await Type2Bench(.ntag215, configuration: .type2Responses(upTo: bytes))
        let message = type2Message(length: 300)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        #expect(try await bench.engine.queryStatus(on: bench.connection).messageLength == 300)
        let spans = bench.connection.frames.filter { $0.first == 0x3A }.map { (Int($0[2]) - Int($0[1]) + 1) * 4 }
        #expect(spans.allSatisfy { $0 <= bytes })
        #expect(spans.contains(bytes / 4 * 4))
    }

    @Test func readAndWriteOnlyReadersGetOnlyREADAndWRITE() async throws {
        let bench = try await Type2Bench(.ntag216, configuration: .type2ReadAndWriteOnly)
        let message = type2Message(length: 400)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        let result = try await bench.engine.readNDEF(on: bench.connection)
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 868, messageLength: 400))
        _ = try await bench.engine.identify(on: bench.connection)
        _ = try await bench.engine.dump(on: bench.connection)
        #expect(Set(bench.connection.codes) == [0x30, 0xA2])
    }

    @Test func aReadLengthBelowSixteenCannotRead() async throws {
        let configuration = SimulatedReaderConfiguration(
            limits: ExchangeLimits(
                maxCommandLength: 64, maxResponseLength: 64, extendedLengthAPDUs: false, nativeCommands: .readAndWriteOnly(readLength: 4)))
        let bench = try await Type2Bench(.ntag213, configuration: configuration)
        await #expect(throws: TagEngineError(.unsupported, "")) { try await bench.engine.readNDEF(on: bench.connection) }
        #expect(bench.connection.frames.isEmpty)
    }

    @Test func olderChipsAreReadWithREADOnly() async throws {
        let tag = LegacyType2Tag(try type2Tag(.ntag213))
        let bench = try await Type2Bench(tag)
        let message = type2Message(length: 100)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        bench.connection.clear()
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        #expect(bench.connection.codes.filter { $0 != 0x60 }.allSatisfy { $0 == 0x30 })
    }

    @Test func aCapOnTheEngineBoundsEveryRead() async throws {
        let bench = try await Type2Bench(.ntag216, engine: Type2Engine(maximumReadLength: 16))
        let message = type2Message(length: 600)
        try await bench.engine.writeNDEF(message, on: bench.connection)
        #expect(try await bench.engine.readNDEF(on: bench.connection).message == message)
        let spans = bench.connection.frames.filter { $0.first == 0x3A }.map { Int($0[2]) - Int($0[1]) + 1 }
        #expect(spans.allSatisfy { $0 <= 4 })
    }

    /// What a READ-and-WRITE-only reader cannot do is an error that names the reader and what it
    /// lacks (issue 20: "fails with a clear error naming the reader and the missing capability").
    @Test func refusalsNameTheReaderAndWhatItLacks() async throws {
        let reader = "HID OMNIKEY 5022 (profile omnikey5022)"
        var limits = SimulatedReaderConfiguration.type2ReadAndWriteOnly.limits
        limits.reader = reader
        let configuration = SimulatedReaderConfiguration(maximumBitRate: .kbps106, limits: limits)
        func reason(_ body: () async throws -> Void) async -> String {
            do {
                try await body()
                return "no error"
            } catch let error as TagEngineError {
                return error.code == .unsupported ? error.reason : "\(error.code): \(error.reason)"
            } catch {
                return "\(error)"
            }
        }
        let formatted = try await Type2Bench(.ntag216, configuration: configuration)
        let password: [UInt8] = [1, 2, 3, 4]
        let refusals = [
            await reason { try await formatted.engine.authenticate(password: password, on: formatted.connection) },
            await reason {
                try await formatted.engine.setPassword(
                    password, pack: [0, 0], protectFrom: 4, protectReads: false, on: formatted.connection)
            },
            await reason { try await formatted.engine.removePassword(currentPassword: password, on: formatted.connection) },
            await reason { _ = try await formatted.engine.readSignature(on: formatted.connection) },
            await reason { try await formatted.engine.makeReadOnly(on: formatted.connection) },
        ]
        let blank = try await Type2Bench(.ntag216, blank: true, configuration: configuration)
        let all = refusals + [await reason { try await blank.engine.format(on: blank.connection) }]
        for (index, text) in all.enumerated() {
            #expect(text.contains(reader) && text.contains("READ and WRITE only"), "refusal \(index): \(text)")
        }
        #expect(Set(formatted.connection.codes).isSubset(of: [0x30]), "nothing written on the way to a refusal")
    }
}
