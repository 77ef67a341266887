import NFCSimulator
import NFCTags
import NFCTransport
import Testing

@Suite struct Type3StandardTests {
    let engine = Type3Engine()
    typealias F = Type3Frames

    /// The IDm of the card's third system (`12FC`): the system number in the upper nibble.
    var ndefIDm: [UInt8] {
        var idm = FeliCaStandardTag.defaultIDm
        idm[0] = 0x20 | (idm[0] & 0x0F)
        return idm
    }

    @Test func formattedCardIsFoundByPollingTheNDEFSystem() async throws {
        let bench = try await Type3Bench(.felica)
        let meter = AirTimeMeter()
        let connection = try await bench.connect(meter: meter)
        #expect(connection.target.identifier == FeliCaStandardTag.defaultIDm)
        #expect(try await engine.queryStatus(on: connection) == NDEFStatus(state: .readWrite, capacity: 1024))
        #expect(meter.statistics.commands == 2)  // Polling 12FC, block 0
    }

    @Test(arguments: [1, 200, 1024])
    func writeThenReadBackWithTheNDEFSystemsIDm(length: Int) async throws {
        let bench = try await Type3Bench(.felica)
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) }
        let meter = AirTimeMeter()
        try await engine.writeNDEF(message, on: try await bench.connect(meter: meter))
        let blocks = (length + 15) / 16
        // Polling, block 0, data reads of ≤ 12, WriteF, data writes of ≤ 10, attribute.
        #expect(meter.statistics.commands == 2 + (blocks + 11) / 12 + 1 + (blocks + 9) / 10 + 1)
        let result = try await engine.readNDEF(on: try await bench.connect())
        #expect(result.message == message)
        #expect(result.status.messageLength == length)

        let tag = try #require(await bench.field.tag(bench.id, as: FeliCaStandardTag.self))
        let service = try #require(tag.systems.first { $0.code == 0x12FC }?.services.first)
        #expect(service.blocks[0] == F.attribute(nbr: 12, nbw: 10, nmaxb: 64, ln: length))
    }

    @Test func blankCardHasNoNDEFAndCannotBeFormatted() async throws {
        let bench = try await Type3Bench(.felica, blank: true)
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection) == .notSupported)
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await engine.readNDEF(on: connection) }
        await #expect(throws: TagEngineError(.unsupported, "")) { try await engine.format(on: connection) }
        await #expect(throws: TagEngineError(.notFormatted, "")) { try await engine.makeReadOnly(on: connection) }
    }

    @Test func formattedCardIsAlreadyFormatted() async throws {
        let bench = try await Type3Bench(.felica)
        await #expect(throws: TagEngineError(.alreadyFormatted, "")) { try await engine.format(on: try await bench.connect()) }
    }

    @Test func makeReadOnlySetsRWFlag() async throws {
        let bench = try await Type3Bench(.felica)
        let message = F.message(length: 50)
        try await engine.writeNDEF(message, on: try await bench.connect())
        try await engine.makeReadOnly(on: try await bench.connect())
        let connection = try await bench.connect()
        #expect(try await engine.queryStatus(on: connection) == NDEFStatus(state: .readOnly, capacity: 1024, messageLength: 50))
        #expect(try await engine.readNDEF(on: connection).message == message)
        await #expect(throws: TagEngineError(.readOnly, "")) { try await engine.writeNDEF(message, on: connection) }
    }

    @Test func identifyListsTheSystems() async throws {
        let bench = try await Type3Bench(.felica)
        let identity = try await engine.identify(on: try await bench.connect())
        #expect(identity.model == "FeliCa Standard (RC-S962)")
        #expect(identity.memorySize == nil)
        #expect(identity.details.first { $0.0 == "system codes" }?.1 == "0003 FE00 12FC")
        #expect(identity.details.first { $0.0 == "NDEF" }?.1 == "system 12FC")

        let blank = try await Type3Bench(.felica, blank: true)
        let blankIdentity = try await engine.identify(on: try await blank.connect())
        #expect(blankIdentity.details.first { $0.0 == "system codes" }?.1 == "0003 FE00")
    }

    @Test func dumpReadsTheNDEFService() async throws {
        let bench = try await Type3Bench(.felica)
        let message = F.message(length: 40)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let rows = try await engine.dump(on: try await bench.connect())
        #expect(rows.count == 2 + 65)
        #expect(rows[0] == ("IDm", ndefIDm))
        #expect(rows[2].0 == "block 0000 (attribute)")
        #expect(rows[3].1 == Array(message.prefix(16)))
        #expect(rows.last?.0 == "block 0040")

        let blank = try await Type3Bench(.felica, blank: true)
        #expect(try await engine.dump(on: try await blank.connect()).map(\.0) == ["IDm", "PMm"])
    }

    @Test func anAttributeBlockClaimingMoreBlocksThanTheServiceHoldsFailsWithTheTagsStatus() async throws {
        let bench = try await Type3Bench(.felica)
        let connection = try await bench.connect()
        // Nmaxb 100 and Ln 1600 on a 64-block service: the checksum is right, the size a lie.
        let lie = F.attribute(nbr: 12, nbw: 10, nmaxb: 100, ln: 1600)
        _ = try await connection.transceive(F.write(ndefIDm, block: 0, data: lie), timeout: .milliseconds(50))
        let error = await #expect(throws: TagEngineError(.tagError, "")) { try await engine.readNDEF(on: connection) }
        #expect(error?.tagStatus?.last == 0xA8)
        // A dump stops at the first block beyond the service.
        let meter = AirTimeMeter()
        let rows = try await engine.dump(on: try await bench.connect(meter: meter))
        #expect(rows.count == 2 + 65 + 1)
        #expect(rows.last?.0 == "block 0041 refused: status 01 A8")
        #expect(meter.statistics.commands == 14)
    }
}
