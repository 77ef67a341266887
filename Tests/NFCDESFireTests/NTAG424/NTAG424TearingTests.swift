import ISO7816
import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// A tag connection as an `APDUTransmitter`.
struct ConnectionTransmitter: APDUTransmitter {
    let connection: any TagConnection
    var supportsExtendedLength: Bool { false }
    func transmit(_ command: [UInt8]) async throws -> [UInt8] { try await connection.transceive(command, timeout: .seconds(1)) }
}

/// Authenticated writes torn at every command: each WriteData of at most 128 bytes lands
/// entirely or not at all (data sheet §8.6), so after any interruption every 128-byte part of the
/// file is its old bytes or its new ones.
@Suite struct NTAG424TearingTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    /// Places the tag, connects, selects the application and authenticates with `key`.
    static func connect(_ field: SimulatedField, key: UInt8) async throws -> NTAG424Client {
        let target = try #require(try await field.targets(matching: .all).first)
        let client = NTAG424Client(
            transmitter: ConnectionTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter())))
        try await client.selectApplication()
        try await client.authenticate(keyNumber: key, key: Self.zero)
        return client
    }

    @Test(arguments: [(FieldFault.TearOutcome.oldData, "old"), (.newData, "new")])
    func fullModeWriteTornEverywhere(outcome: FieldFault.TearOutcome, name: String) async throws {
        // File 03: full mode, write key 3; a 128-byte write is one WriteData, 100 bytes more a second.
        let new = (0..<128).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        let clean = SimulatedField()
        _ = await clean.place(NTAG424Tag())
        let meter = AirTimeMeter()
        let target = try #require(try await clean.targets(matching: .all).first)
        let counting = NTAG424Client(transmitter: ConnectionTransmitter(connection: try await clean.connect(to: target, meter: meter)))
        try await counting.selectApplication()
        try await counting.authenticate(keyNumber: 3, key: Self.zero)
        let before = meter.statistics.commands
        try await counting.write(new, file: 3)
        let total = meter.statistics.commands - before
        #expect(total == 2, "GetFileSettings, then one WriteData")

        var outcomes: Set<String> = []
        for command in 1...total {
            let field = SimulatedField()
            let id = await field.place(NTAG424Tag())
            let client = try await Self.connect(field, key: 3)
            await field.inject(.tear(command: command, outcome: outcome), into: id)
            await #expect(throws: (any Error).self) { try await client.write(new, file: 3) }
            let stored = try #require(await field.tag(id, as: NTAG424Tag.self)).files[2].contents
            #expect(stored == new || stored == Array(repeating: 0, count: 128), "command \(command): a part-written file")
            outcomes.insert(stored == new ? "new" : "old")
        }
        #expect(outcomes.contains("old"))
        if outcome == .newData { #expect(outcomes.contains("new")) }
    }

    /// A 256-byte write to the NDEF file goes as two WriteData commands: torn anywhere, each half is
    /// old or new, and the session is gone (the next command needs a new authentication).
    @Test func twoPartWriteTornEverywhere() async throws {
        let new = (0..<256).map { UInt8(truncatingIfNeeded: 255 - $0) }
        for command in 1...3 {
            for outcome in [FieldFault.TearOutcome.oldData, .newData] {
                let field = SimulatedField()
                let id = await field.place(NTAG424Tag())
                let client = try await Self.connect(field, key: 0)
                await field.inject(.tear(command: command, outcome: outcome), into: id)
                await #expect(throws: (any Error).self) { try await client.write(new, file: 2) }
                let stored = try #require(await field.tag(id, as: NTAG424Tag.self)).files[1].contents
                for half in [0..<128, 128..<256] {
                    let part = Array(stored[half])
                    #expect(
                        part == Array(new[half]) || part == Array(repeating: 0, count: 128), "command \(command) \(outcome): bytes \(half)")
                }
            }
        }
    }
}
