import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// A DESFire transaction torn at every command: backup, value and record files change only at
/// CommitTransaction, in one EEPROM write (EV1 short data sheet §8.3), so after any interruption
/// all three hold their old state or all three their new one — never a mixture, never a part.
@Suite struct DESFireTransactionTearingTests {
    static let zero = [UInt8](repeating: 0, count: 16)
    static let aid = DESFireAID(0x000042)!

    /// A card with application `000042`: backup file 1 (200 bytes of `11`), value file 2 (50),
    /// linear record file 3 (empty), all free.
    static func card() -> DESFireCard {
        var card = DESFireCard(model: .ev3)
        var app = DESFireApplication(aid: aid.wire, keySettings: 0x0F, keyCount: 1)
        let free = NTAG424File.AccessRights(read: 0x0E, write: 0x0E, readWrite: 0x0E, change: 0x00)
        app.files = [
            DESFireDataFile(number: 1, kind: .backup, mode: .plain, access: free, contents: Array(repeating: 0x11, count: 200)),
            DESFireDataFile(
                number: 2, kind: .value(.init(lowerLimit: 0, upperLimit: 1_000, value: 50, limitedCreditEnabled: false)), mode: .plain,
                access: free),
            DESFireDataFile(number: 3, kind: .linearRecord(.init(recordSize: 4, maximumRecords: 5)), mode: .plain, access: free),
        ]
        card.applications = [app]
        return card
    }

    /// The transaction: two WriteData parts (200 bytes of `22`), a Credit of 25, a record, the commit.
    static func transact(_ client: DESFireClient) async throws {
        try await client.selectApplication(aid)
        try await client.write(Array(repeating: 0x22, count: 200), file: 1)
        try await client.change(value: .credit, file: 2, amount: 25)
        try await client.writeRecord([1, 2, 3, 4], file: 3)
        try await client.commit()
    }

    @Test(arguments: [FieldFault.TearOutcome.oldData, .newData])
    func transactionTornEverywhere(outcome: FieldFault.TearOutcome) async throws {
        let clean = SimulatedField()
        _ = await clean.place(Self.card())
        let meter = AirTimeMeter()
        let target = try #require(try await clean.targets(matching: .all).first)
        try await Self.transact(
            DESFireClient(transmitter: ConnectionTransmitter(connection: try await clean.connect(to: target, meter: meter))))
        let total = meter.statistics.commands
        #expect(total >= 8, "select, settings and two writes, settings and credit, settings and record, commit")

        var outcomes: Set<String> = []
        for command in 1...total {
            let field = SimulatedField()
            let id = await field.place(Self.card())
            let target = try #require(try await field.targets(matching: .all).first)
            let client = DESFireClient(
                transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
            await field.inject(.tear(command: command, outcome: outcome), into: id)
            await #expect(throws: (any Error).self) { try await Self.transact(client) }
            let stored = try #require(await field.tag(id, as: DESFireCard.self)?.applications.first)
            let old = Self.card().applications[0].files
            var new = old
            new[0].contents = Array(repeating: 0x22, count: 200)
            new[1].kind = .value(.init(lowerLimit: 0, upperLimit: 1_000, value: 75, limitedCreditEnabled: false))
            var records = DESFireDataFile.RecordFile(recordSize: 4, maximumRecords: 5)
            records.records = [[1, 2, 3, 4]]
            new[2].kind = .linearRecord(records)
            #expect(stored.files == old || stored.files == new, "command \(command) \(outcome): a mixture of old and new")
            outcomes.insert(stored.files == new ? "new" : "old")
        }
        #expect(outcomes.contains("old"))
        if outcome == .newData { #expect(outcomes == ["old", "new"], "only a torn commit that landed gives the new state") }
    }
}
