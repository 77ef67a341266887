import ISO7816
import NDEF
import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTags
import NFCTestSupport
import NFCTransport
import Testing

/// The DESFire client against the virtual DESFire through a simulated field: applications, keys,
/// every file kind in every communication mode, transactions, and NDEF formatting read back by the
/// Type 4 engine.
@Suite struct DESFireClientTests {
    static let zero = [UInt8](repeating: 0, count: 16)
    static let appKey: [UInt8] = hexBytes("00112233445566778899AABBCCDDEEFF")
    static let fileKey: [UInt8] = hexBytes("A0A1A2A3A4A5A6A7A8A9AAABACADAEAF")
    static let aid = DESFireAID(0x00F123)!

    /// A field holding `card`, connected: the client, the field and the card's id.
    static func connect(_ card: DESFireCard) async throws -> (DESFireClient, SimulatedField, VirtualTagID) {
        let field = SimulatedField()
        let id = await field.place(card)
        let target = try #require(try await field.targets(matching: .all).first)
        let client = DESFireClient(
            transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
        return (client, field, id)
    }

    /// An application with two keys, key 0 changed, key 1 changed under key 0; files of every
    /// kind behind key 1 in full, MAC and plain mode; all used through secure messaging.
    @Test func applicationKeysAndFilesThroughSecureMessaging() async throws {
        let (client, field, id) = try await Self.connect(DESFireCard(model: .ev2))
        let version = try await client.version()
        #expect(version.desfireGeneration == "DESFire EV2" && version.storageBytes == 8_192)
        // A fresh card's PICC master key is DES: AuthenticateISO and EV1 secure messaging at the PICC level.
        try await client.authenticate(keyNumber: 0, key: Self.zero, method: .iso)
        #expect(try await client.applicationIDs() == [])
        try await client.createApplication(Self.aid, keySettings: 0x0B, keyCount: 2)
        #expect(try await client.applicationIDs() == [Self.aid])
        let free = try await client.freeMemory()
        #expect(free == 7_936)
        try await client.selectApplication(Self.aid)
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        try await client.changeKey(1, to: Self.fileKey, version: 3, oldKey: Self.zero)
        try await client.changeKey(0, to: Self.appKey, version: 1, oldKey: Self.zero)
        #expect(await client.session == nil, "changing the session's own key ends it")
        try await client.authenticate(keyNumber: 0, key: Self.appKey)
        #expect(try await client.keyVersion(1) == 3)
        let settings = try await client.keySettings()
        #expect(settings.rawValue == 0x0B && settings.keyCount == 2 && settings.keyTypeName == "AES")
        let keyed = DESFireClient.FileAccess(mode: .full, read: .key(1), write: .key(1), readWrite: .key(1), change: .key(0))
        try await client.createDataFile(1, size: 300, access: keyed)
        var mac = keyed
        mac.mode = .mac
        try await client.createDataFile(2, size: 40, access: mac, backup: true)
        try await client.createValueFile(3, lower: 0, upper: 500, value: 10, limitedCredit: true, access: keyed)
        try await client.createRecordFile(4, recordSize: 8, maximumRecords: 3, cyclic: true, access: keyed)
        #expect(try await client.fileIDs() == [1, 2, 3, 4])
        #expect(try await client.freeMemory() == free - (320 + 96 + 32 + 32))
        #expect(try await client.cardUID() == DESFireCard.defaultUID)

        try await client.authenticateNonFirst(keyNumber: 1, key: Self.fileKey)
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 13) }
        try await client.write(data, file: 1)
        #expect(try await client.read(file: 1) == data)
        #expect(try await client.read(file: 1, offset: 250, length: 50) == Array(data[250...]))
        try await client.write(Array(repeating: 0x5A, count: 40), file: 2)
        #expect(try await client.read(file: 2) == Array(repeating: 0, count: 40), "not committed")
        try await client.change(value: .credit, file: 3, amount: 90)
        try await client.writeRecord(Array("record-1".utf8), file: 4)
        try await client.commit()
        #expect(try await client.read(file: 2) == Array(repeating: 0x5A, count: 40))
        #expect(try await client.value(file: 3) == 100)
        try await client.change(value: .debit, file: 3, amount: 25)
        try await client.writeRecord(Array("record-2".utf8), file: 4)
        try await client.commit()
        try await client.change(value: .limitedCredit, file: 3, amount: 25)
        try await client.abort()
        #expect(try await client.value(file: 3) == 75)
        #expect(try await client.readRecords(file: 4) == [Array("record-1".utf8), Array("record-2".utf8)])
        await #expect(throws: DESFireError(.boundaryError, "")) { try await client.change(value: .debit, file: 3, amount: 76) }
        #expect(await client.session == nil, "an error ends the session")

        let stored = try #require(await field.tag(id, as: DESFireCard.self))
        #expect(stored.applications[0].keys[1] == DESFireCard.Key(value: Self.fileKey, version: 3))
        #expect(stored.applications[0].files[0].contents == data)
    }

    /// Refusals come back as named errors: a missing application, a duplicate, a wrong key, a
    /// command the EV1 lacks.
    @Test func refusalsAreNamed() async throws {
        let (client, _, _) = try await Self.connect(DESFireCard(model: .ev1))
        await #expect(throws: DESFireError(.applicationNotFound, "")) { try await client.selectApplication(Self.aid) }
        try await client.createApplication(Self.aid)
        await #expect(throws: DESFireError(.duplicateError, "")) { try await client.createApplication(Self.aid) }
        await #expect(throws: DESFireError(.illegalCommand, "")) { try await client.authenticate(keyNumber: 0, key: Self.zero) }
        let (ev3, _, _) = try await Self.connect(DESFireCard(model: .ev3))
        await #expect(throws: DESFireError(.authenticationError, ""), "a wrong key: the card cannot read RndB'") {
            try await ev3.authenticate(keyNumber: 0, key: Self.appKey)
        }
        await #expect(throws: DESFireError(.invalidArgument, "")) { try await ev3.createApplication(.picc) }
        do {
            try await ev3.formatPICC()
            Issue.record("FormatPICC without the master key was accepted")
        } catch let error as DESFireError {
            #expect(error.code == .authenticationError && error.status == 0x91AE)
        }
    }

    /// A blank card formatted for NDEF (AN11004) reads and writes through the NFC Forum Type 4
    /// engine — no DESFire command involved — on each generation, EV1 (no EV2 authentication) included.
    @Test(arguments: DESFireModel.allCases)
    func formatForNDEFThenTheType4Engine(model: DESFireModel) async throws {
        let (client, field, id) = try await Self.connect(DESFireCard(model: model))
        try await client.formatForNDEF(ndefFileSize: 1_024)
        let formatted = try #require(await field.tag(id, as: DESFireCard.self))
        #expect(formatted.applications == DESFireCard.ndefFormatted(model: model, ndefFileSize: 1_024).applications)
        let target = try #require(try await field.targets(matching: .all).first)
        let connection = try await field.connect(to: target, meter: AirTimeMeter())
        let engine = Type4Engine()
        #expect(try await engine.readNDEF(on: connection).message == [])
        let record = NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array("on a DESFire".utf8))
        let message = try NDEFMessage(records: [record]).encoded()
        try await engine.writeNDEF(message, on: connection)
        #expect(try await engine.readNDEF(on: connection).message == message)
        await #expect(throws: DESFireError(.duplicateError, "")) { try await client.formatForNDEF() }
    }
}

/// The client's side of the review's findings: `AF`-continued writes on an EV1, a deleted selected
/// application, NO_CHANGES, offsets that would overflow, completing an empty NDEF application.
@Suite struct DESFireClientEdgeTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    @Test func longWritesGoInFramesAnEV1Takes() async throws {
        let (client, _, _) = try await DESFireClientTests.connect(DESFireCard(model: .ev1))
        let aid = try #require(DESFireAID(0x000102))
        try await client.createApplication(aid)
        try await client.selectApplication(aid)
        try await client.createDataFile(1, size: 300)
        try await client.createRecordFile(2, recordSize: 100, maximumRecords: 2)
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await client.write(data, file: 1)
        #expect(try await client.read(file: 1) == data)
        try await client.writeRecord(Array(data.prefix(100)), file: 2)
        try await client.commit()
        #expect(try await client.readRecords(file: 2) == [Array(data.prefix(100))])
        try await client.commit()  // nothing pending: NO_CHANGES is no error
        await #expect(throws: DESFireError(.invalidArgument, "")) { try await client.read(file: 1, offset: Int.max, length: 1) }
        await #expect(throws: DESFireError(.invalidArgument, "")) { try await client.write([1], file: 1, offset: Int.max) }
        await #expect(throws: DESFireError(.invalidArgument, "")) { try await client.readRecords(file: 2, offset: 1 << 24) }
    }

    @Test func deletingTheSelectedApplicationEndsTheSession() async throws {
        let (client, _, _) = try await DESFireClientTests.connect(DESFireCard(model: .ev3))
        let aid = try #require(DESFireAID(0x000102))
        try await client.createApplication(aid)
        try await client.selectApplication(aid)
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        try await client.commit()
        #expect(await client.session != nil, "NO_CHANGES keeps the session")
        try await client.deleteApplication(aid)
        let selected = await client.selected
        #expect(await client.session == nil && selected == .picc)
        #expect(try await client.applicationIDs() == [], "the next command goes in the clear, as the card expects")
    }

    /// The factory DES PICC master key becomes an AES key (KeyNo type bits `80`) under an ISO
    /// session, after which EV2 authentication takes it.
    @Test func piccMasterKeyGoesFromDESToAES() async throws {
        let (client, field, id) = try await DESFireClientTests.connect(DESFireCard(model: .ev3))
        let key = hexBytes("000102030405060708090A0B0C0D0E0F")
        try await client.selectApplication(.picc)
        try await client.authenticate(keyNumber: 0, key: Self.zero, method: .iso)
        try await client.changeKey(0, to: key, version: 7, oldKey: Self.zero, type: .aes)
        #expect(await field.tag(id, as: DESFireCard.self)?.piccKey == DESFireCard.Key(value: key, version: 7))
        #expect(await field.tag(id, as: DESFireCard.self)?.piccKeyType == .aes)
        try await client.authenticate(keyNumber: 0, key: key)
    }

    @Test func formatForNDEFCompletesAnEmptyApplication() async throws {
        let (client, field, id) = try await DESFireClientTests.connect(DESFireCard(model: .ev2))
        try await client.createApplication(
            DESFireClient.ndefApplication, keySettings: 0x0F, isoFileIdentifier: 0xE110, dfName: DESFireClient.ndefApplicationName)
        try await client.formatForNDEF()
        let card = try #require(await field.tag(id, as: DESFireCard.self))
        #expect(card.applications == DESFireCard.ndefFormatted(model: .ev2).applications)
    }
}

/// A card that answers from a script.
final class ScriptedCard: APDUTransmitter, @unchecked Sendable {
    let supportsExtendedLength = false
    var answers: [[UInt8]]
    private(set) var sent: [[UInt8]] = []
    init(_ answers: [[UInt8]]) { self.answers = answers }
    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        sent.append(command)
        return answers.isEmpty ? [0x91, 0xCA] : answers.removeFirst()
    }
}

@Suite struct DESFireClientFramingTests {
    /// A card that says "done" before the last frame of a long write is not believed.
    @Test func aCommandEndedEarlyIsAnError() async throws {
        let settings = DESFireFileSettings(
            kind: .standard(size: 100), mode: .plain, read: .free, write: .free, readWrite: .free, change: .key(0))
        let card = ScriptedCard([[0x91, 0x00]])
        let client = DESFireClient(transmitter: card)
        await #expect(throws: DESFireError(.malformedResponse, "")) {
            try await client.write(Array(repeating: 7, count: 80), file: 1, settings: settings)
        }
        #expect(card.sent.count == 1, "no second frame after the card ended the command")
    }

    /// After power-on the client is at the PICC level: ChangeKey carries the AES type bits there
    /// without a SelectApplication first.
    @Test func piccChangeKeyRightAfterPowerOn() async throws {
        var card = DESFireCard(model: .ev2)
        card.piccKeyType = .aes
        card.piccKey = DESFireCard.Key(value: DESFireClientTests.zero)
        let (client, field, id) = try await DESFireClientTests.connect(card)
        let key = hexBytes("0F0E0D0C0B0A09080706050403020100")
        try await client.authenticate(keyNumber: 0, key: DESFireClientTests.zero)
        try await client.changeKey(0, to: key, version: 1, oldKey: DESFireClientTests.zero)
        #expect(await field.tag(id, as: DESFireCard.self)?.piccKey.value == key)
    }

    /// A NO_CHANGES answer that carries a MAC (over RC 0C and CmdCtr + 1) is checked and steps
    /// CmdCtr; a wrong one is refused.
    @Test func noChangesWithAMAC() throws {
        let keys = (enc: [UInt8](repeating: 1, count: 16), mac: [UInt8](repeating: 2, count: 16))
        var session = EV2Session(
            keyNumber: 0, encryptionKey: keys.enc, macKey: keys.mac, transactionIdentifier: [1, 2, 3, 4], commandCounter: 5)
        // The answer's MAC input, RC ‖ CmdCtr + 1 ‖ TI, is a bare command's MAC input at CmdCtr 6.
        let mac = try EV2Session(
            keyNumber: 0, encryptionKey: keys.enc, macKey: keys.mac, transactionIdentifier: [1, 2, 3, 4], commandCounter: 6
        )
        .protect(command: 0x0C, header: [], data: [], mode: .mac)
        var wrongStatus = session
        #expect(throws: DESFireError(.responseIntegrity, "")) { try wrongStatus.open(response: mac, mode: .mac) }
        #expect(try session.open(response: mac, mode: .mac, status: 0x0C) == [])
        #expect(session.commandCounter == 6)
    }
}
