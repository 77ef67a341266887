import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Bad answers from the card and the field: typed errors naming what and where, never a trap.
@Suite struct Type3FaultTests {
    let engine = Type3Engine()
    typealias F = Type3Frames
    let idm = FeliCaLiteSTag.defaultIDm

    @Test func aFlippedBitInTheAttributeBlockFailsItsChecksum() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        try await engine.writeNDEF(F.message(length: 30), on: try await bench.connect())
        // Byte 12 of the first read's answer is byte 0 of block 0's data: Ln's low byte is 12 + 13.
        let connection = try await bench.connect()
        await bench.field.inject(.corruptResponse(command: 1, .flipBits(byte: 12 + 13, mask: 0x40)), into: bench.id)
        let error = await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await engine.readNDEF(on: connection) }
        #expect(error?.reason.contains("checksum") == true)
        await bench.field.inject(.corruptResponse(command: 1, .flipBits(byte: 12 + 13, mask: 0x40)), into: bench.id)
        #expect(try await engine.queryStatus(on: connection) == .notSupported)
        #expect(try await engine.readNDEF(on: connection).message == F.message(length: 30))
    }

    @Test func aLyingLnWithAGoodChecksumIsCaught() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        _ = try await connection.transceive(F.write(idm, block: 0, data: F.attribute(ln: 500)), timeout: .milliseconds(50))
        let error = await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await engine.readNDEF(on: connection) }
        #expect(error?.reason.contains("Ln") == true)
        #expect(try await engine.queryStatus(on: connection) == .notSupported)
        await #expect(throws: TagEngineError(.invalidCapabilityContainer, "")) { try await engine.writeNDEF([0xD0, 0, 0], on: connection) }
    }

    @Test func anInterruptedWriteMarkIsReportedAsWriteInProgress() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        _ = try await connection.transceive(F.write(idm, block: 0, data: F.attribute(writeF: 0x0F, ln: 16)), timeout: .milliseconds(50))
        let error = await #expect(throws: TagEngineError(.invalidNDEFArea, "")) { try await engine.readNDEF(on: connection) }
        #expect(error?.reason.contains("write in progress") == true)
        #expect(try await engine.queryStatus(on: connection) == NDEFStatus(state: .readWrite, capacity: 208, messageLength: 0))
    }

    @Test func aReadRestrictedBlockIsATagErrorWithItsStatusFlags() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        try await engine.writeNDEF(F.message(length: 100), on: try await bench.connect())
        let connection = try await bench.connect()
        // MC byte 6 bit 5: reading S_PAD5 needs authentication (MC_SP_REG_R_RESTR).
        var mc = try #require(await bench.liteS).memoryConfigurationBlock
        mc[6] = 0x20
        _ = try await connection.transceive(F.write(idm, block: 0x88, data: mc), timeout: .milliseconds(50))
        let error = await #expect(throws: TagEngineError(.tagError, "")) { try await engine.readNDEF(on: connection) }
        // Second read: blocks 3, 4, 5, 6 — block 5 is the third element (Lite-S flag bit 04).
        #expect(error?.tagStatus == [0x04, 0xB1])
        #expect(error?.reason.contains("3, 4, 5, 6") == true)
        // A dump shows the block as refused and goes on.
        let rows = try await engine.dump(on: connection)
        #expect(rows.first { $0.0.hasPrefix("block 05") }?.0 == "block 05 (S_PAD5) refused: status 01 B1")
        #expect(rows.first { $0.0 == "block 06 (S_PAD6)" }?.1.isEmpty == false)
    }

    @Test func aCRCErrorIsATransportError() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        await bench.field.inject(.corruptResponse(command: 1, .crcError), into: bench.id)
        let error = await #expect(throws: TagEngineError(.transport, "")) { try await engine.readNDEF(on: connection) }
        #expect(error?.transport?.code == .transmission)
    }

    @Test func aLateAnswerTimesOutAgainstThePMmMaximum() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        let connection = try await bench.connect()
        // PMm read parameter 01: 302 µs × (n + 2); 2 ms late is beyond it for four blocks.
        await bench.field.inject(.delayResponse(command: 1, by: .milliseconds(2)), into: bench.id)
        await #expect(throws: TagEngineError(.timeout, "")) { try await engine.readNDEF(on: connection) }
        await bench.field.inject(.delayResponse(command: 1, by: .microseconds(500)), into: bench.id)
        #expect(try await engine.readNDEF(on: connection).message.isEmpty)
    }

    @Test func aTagLeavingMidReadIsTagLost() async throws {
        let bench = try await Type3Bench(.felicaLiteS)
        try await engine.writeNDEF(F.message(length: 200), on: try await bench.connect())
        let connection = try await bench.connect()
        await bench.field.inject(.removeAfterCommands(2), into: bench.id)
        await #expect(throws: TagEngineError(.tagLost, "")) { try await engine.readNDEF(on: connection) }
    }

    @Test func aNonFeliCaTargetIsUnsupported() async throws {
        let field = SimulatedField()
        await field.place(try VirtualTagKind.ntag213.make())
        let connection = try await field.connect(to: try await field.targets(matching: .all)[0], meter: AirTimeMeter())
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.queryStatus(on: connection) }
    }
}
