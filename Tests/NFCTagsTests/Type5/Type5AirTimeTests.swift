import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// Reading a full NDEF message against the physical minimum of AIRTIME.md — one (Extended) Read
/// Multiple Blocks of every block from the CC to the message's last byte — and against the
/// one-block-per-command pattern (`maximumBlocksPerRead: 1`).
@Suite("Type5 air time")
struct Type5AirTimeTests {
    /// Writes a message, reconnects (the meter starts after activation) and reads it back.
    private func measuredRead(kind: VirtualTagKind, length: Int, engine: Type5Engine) async throws -> (microseconds: Double, commands: Int)
    {
        let tag = try await Type5Field(kind)
        let message = Type5Fixtures.message(length: length)
        try await Type5Engine().writeNDEF(message, on: tag.connection)
        tag.meter.reset()
        let result = try await engine.readNDEF(on: tag.connection)
        #expect(result.message == message)
        return (tag.airTimeMicroseconds, tag.meter.statistics.commands)
    }

    struct Case: Sendable, CustomStringConvertible {
        var kind: VirtualTagKind
        var length: Int
        /// Offset of the NDEF message's first byte: CC + TLV header.
        var valueOffset: Int
        var extended: Bool
        var description: String { "\(kind) \(length) B" }
    }

    static let cases = [
        Case(kind: .iso15693_2k, length: 1000, valueOffset: 12, extended: true),  // ≈ 1 KB
        Case(kind: .iso15693_2k, length: 2036, valueOffset: 12, extended: true),  // the full 2 KB
        Case(kind: .slix2, length: 308, valueOffset: 8, extended: false),  // the SLIX2's full area
    ]

    @Test("A full NDEF read within 1.10× of one Read Multiple Blocks of the needed blocks", arguments: cases)
    func withinTenPercent(of testCase: Case) async throws {
        let (time, commands) = try await measuredRead(kind: testCase.kind, length: testCase.length, engine: Type5Engine())
        let minimum = Type5Air.minimumRead(lastByte: testCase.valueOffset + testCase.length - 1, extended: testCase.extended)
        #expect(commands == 2)
        #expect(time <= 1.10 * minimum, "\(testCase): \(time) µs against a minimum of \(minimum) µs")
        #expect(time >= minimum)
    }

    @Test("ISO 15693 1 KB: ≈ 316 ms in two reads against ≈ 1.9 s one block per command")
    func oneKilobyte() async throws {
        let fast = try await measuredRead(kind: .iso15693_2k, length: 1012, engine: Type5Engine())
        let slow = try await measuredRead(kind: .iso15693_2k, length: 1012, engine: Type5Engine(maximumBlocksPerRead: 1))
        // 1012 B + CC and TLV header = 1024 B = 256 blocks.
        #expect(fast.microseconds < 330_000)
        #expect(slow.commands == 256)
        #expect(slow.microseconds > 1_800_000 && slow.microseconds < 2_000_000)
    }

    @Test("2 KB: the full ST25DV16K area against one block per command")
    func twoKilobytes() async throws {
        let fast = try await measuredRead(kind: .iso15693_2k, length: 2036, engine: Type5Engine())
        let slow = try await measuredRead(kind: .iso15693_2k, length: 2036, engine: Type5Engine(maximumBlocksPerRead: 1))
        #expect(fast.microseconds < 640_000)
        #expect(slow.commands == 512)
        #expect(slow.microseconds > 5 * fast.microseconds)
    }

    @Test("A capped engine reads in chunks of the cap")
    func capped() async throws {
        let capped = try await measuredRead(kind: .iso15693_2k, length: 1000, engine: Type5Engine(maximumBlocksPerRead: 32))
        // Blocks 0–3, then blocks 4–252 in reads of 32.
        #expect(capped.commands == 1 + (249 + 31) / 32)
    }
}
