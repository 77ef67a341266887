import NFCSimulator
import NFCTags
import NFCTransport
import Testing

@Suite struct Type3LiteSTests {
    let engine = Type3Engine()
    typealias F = Type3Frames

    @Test func formattedCardIsAnEmptyReadWriteTag() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        let status = try await engine.queryStatus(on: connection)
        #expect(status == NDEFStatus(state: .readWrite, capacity: 208, messageLength: 0))
        let result = try await engine.readNDEF(on: connection)
        #expect(result.message.isEmpty)
        #expect(result.status.state == .readWrite)
    }

    @Test(arguments: [1, 7, 16, 17, 100, 207, 208])
    func writeThenReadBack(length: Int) async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let message = F.message(length: length)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let result = try await engine.readNDEF(on: try await bench.connect())
        #expect(result.message == message)
        #expect(result.status == NDEFStatus(state: .readWrite, capacity: 208, messageLength: length))
        let tag = try #require(await bench.liteS)
        #expect(tag.storedBlock(0) == F.attribute(ln: length))
    }

    @Test func rewritingSkipsBlocksThatAlreadyHoldTheBytes() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        var message = F.message(length: 100)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let before = try #require(await bench.liteS).writeCount
        message[50] ^= 0xFF  // block 4 only
        let meter = AirTimeMeter()
        try await engine.writeNDEF(message, on: try await bench.connect(meter: meter))
        let after = try #require(await bench.liteS).writeCount
        // WriteF 0F, block 4, the final attribute block.
        #expect(after - before == 3)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == message)
        // The same message again writes nothing.
        try await engine.writeNDEF(message, on: try await bench.connect())
        #expect(try #require(await bench.liteS).writeCount == after)
    }

    @Test func aShorterPrefixOnlyRewritesTheAttributeBlock() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let message = F.message(length: 64)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let before = try #require(await bench.liteS).writeCount
        try await engine.writeNDEF(Array(message.prefix(32)), on: try await bench.connect())
        #expect(try #require(await bench.liteS).writeCount - before == 1)
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == Array(message.prefix(32)))
    }

    @Test func tooLongAMessageIsRefused() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        await #expect(throws: TagEngineError(.capacityExceeded, "")) {
            try await engine.writeNDEF(F.message(length: 209), on: try await bench.connect())
        }
    }

    @Test func blankCardIsNotSupportedUntilFormatted() async throws {
        let bench = try await Type3Bench(.felicaLiteS, blank: true)
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection) == .notSupported)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await engine.readNDEF(on: connection) }
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await engine.writeNDEF([0xD0, 0, 0], on: connection) }

        try await engine.format(on: connection)
        let tag = try #require(await bench.liteS)
        #expect(tag.memoryConfigurationBlock[3] == 0x01)
        #expect(tag.storedBlock(0) == F.attribute())
        #expect(try await engine.queryStatus(on: try await bench.connect()) == NDEFStatus(state: .readWrite, capacity: 208))
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await engine.format(on: try await bench.connect()) }

        let message = F.message(length: 40)
        try await engine.writeNDEF(message, on: try await bench.connect())
        #expect(try await engine.readNDEF(on: try await bench.connect()).message == message)
    }

    @Test func formatCutAfterMCIsCompletedByFormattingAgain() async throws {
        let bench = try await Type3Bench(.felicaLiteS, blank: true)
        let connection = try await bench.connect()
        await bench.field.inject(.removeAfterCommands(2), into: bench.id)  // read, MC write
        await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.format(on: connection) }
        #expect(try await engine.queryStatus(on: try await bench.connect()) == .notSupported)
        try await engine.format(on: try await bench.connect())
        #expect(try await engine.queryStatus(on: try await bench.connect()).state == .readWrite)
    }

    /// Writes MC (block 88) raw; bytes 0–1 can only clear bits, 2–5 change while MC_ALL is FF.
    func writeMC(_ bench: Type3Bench, _ edit: (inout [UInt8]) -> Void) async throws {
        var mc = try #require(await bench.liteS).memoryConfigurationBlock
        edit(&mc)
        let connection = try await bench.connect()
        let answer = try await connection.transceive(F.write(FeliCaLiteSTag.defaultIDm, block: 0x88, data: mc), timeout: .milliseconds(50))
        #expect(answer.suffix(2) == [0x00, 0x00])
    }

    @Test func formatRespectsTheLocksInMC() async throws {
        let locked = try await Type3Bench(.felicaLiteS, blank: true)
        try await writeMC(locked) { $0[2] = 0x00 }  // MC_ALL: SYS_OP can no longer change
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.format(on: try await locked.connect()) }

        let readOnly = try await Type3Bench(.felicaLiteS, blank: true)
        try await writeMC(readOnly) { $0[0] = 0xFE }  // S_PAD0 read-only
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.format(on: try await readOnly.connect()) }
        #expect(try #require(await readOnly.liteS).writeCount == 1)

        let short = try await Type3Bench(.felicaLiteS, blank: true)
        try await writeMC(short) { $0[1] = 0xFB }  // S_PAD10 read-only: Nmaxb 9
        try await engine.format(on: try await short.connect())
        #expect(try await engine.queryStatus(on: try await short.connect()) == NDEFStatus(state: .readWrite, capacity: 144))
    }

    @Test func aCardWhoseMCLocksNDEFBlocksIsReadOnly() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        try await writeMC(bench) { $0[0] = 0xFB }  // S_PAD2 read-only, RWFlag still 01
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection).state == .readOnly)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.writeNDEF([0xD0, 0, 0], on: connection) }
    }

    @Test func frozenWritableMCCannotBeMadeReadOnly() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        try await writeMC(bench) { $0[1] = 0x7F }  // bit 15 cleared: bytes 0–1 frozen, blocks writable
        let before = try #require(await bench.liteS).writeCount
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.makeReadOnly(on: try await bench.connect()) }
        #expect(try #require(await bench.liteS).writeCount == before)
    }

    @Test func makeReadOnlyLocksTheAttributeBlockAndMC() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let message = F.message(length: 30)
        try await engine.writeNDEF(message, on: try await bench.connect())
        try await engine.makeReadOnly(on: try await bench.connect())

        let tag = try #require(await bench.liteS)
        #expect(tag.storedBlock(0) == F.attribute(rwFlag: 0, ln: 30))
        #expect(Array(tag.memoryConfigurationBlock.prefix(4)) == [0x00, 0x40, 0x00, 0x01])
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection) == NDEFStatus(state: .readOnly, capacity: 208, messageLength: 30))
        #expect(try await engine.readNDEF(on: connection).message == message)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.writeNDEF([0xD0, 0, 0], on: connection) }
        // The chip itself refuses: a raw write to S_PAD1 fails with A8.
        let answer = try await connection.transceive(
            F.write(FeliCaLiteSTag.defaultIDm, block: 1, data: F.zeros), timeout: .milliseconds(50))
        #expect(answer.suffix(2) == [0x01, 0xA8])
        // Running it again changes nothing.
        let writes = tag.writeCount
        try await engine.makeReadOnly(on: connection)
        #expect(try #require(await bench.liteS).writeCount == writes)
    }

    @Test func makeReadOnlyCutAfterTheAttributeBlockIsFinishedNextTime() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        await bench.field.inject(.removeAfterCommands(2), into: bench.id)  // read, attribute write
        await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.makeReadOnly(on: connection) }
        #expect(try await engine.queryStatus(on: try await bench.connect()).state == .readOnly)
        #expect(try #require(await bench.liteS).memoryConfigurationBlock[0] == 0xFF)
        try await engine.makeReadOnly(on: try await bench.connect())
        #expect(try #require(await bench.liteS).memoryConfigurationBlock[0] == 0x00)
    }

    @Test func identifyReadsThePMmAndMC() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let identity = try await engine.identify(on: try await bench.connect())
        #expect(identity.family == .type3)
        #expect(identity.model == "FeliCa Lite-S (RC-S966)")
        #expect(identity.memorySize == 224)
        #expect(identity.details.first { $0.0 == "system codes" }?.1 == "88B4 12FC")

        let blank = try await Type3Bench(.felicaLiteS, blank: true)
        let blankIdentity = try await engine.identify(on: try await blank.connect())
        #expect(blankIdentity.details.first { $0.0 == "system codes" }?.1 == "88B4")
    }

    @Test func dumpListsUserAndSystemBlocks() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let message = F.message(length: 20)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let rows = try await engine.dump(on: try await bench.connect())
        #expect(rows.map(\.0).prefix(3) == ["IDm", "PMm", "block 00 (S_PAD0)"])
        #expect(rows.count == 2 + 15 + 7)
        #expect(rows[2].1 == F.attribute(ln: 20))
        #expect(rows[3].1 == Array(message.prefix(16)))
        #expect(rows.first { $0.0 == "block 88 (MC)" }?.1.prefix(4) == [0xFF, 0xFF, 0xFF, 0x01])
        #expect(rows.first { $0.0 == "block 83 (D_ID)" }?.1 == FeliCaLiteSTag.defaultIDm + FeliCaLiteSTag.defaultPMm)
    }
}
