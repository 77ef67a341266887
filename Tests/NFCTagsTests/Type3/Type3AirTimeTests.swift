import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// The air-time goal of ../shared/design/AIRTIME.md: a full FeliCa Lite-S read within 1.10× of
/// the physical minimum, four reads of 4, 4, 4 and 1 blocks ≈ 17 ms.
@Suite struct Type3AirTimeTests {
    typealias F = Type3Frames
    let idm = FeliCaLiteSTag.defaultIDm

    /// One Read Without Encryption of n blocks on a Lite-S at 212 kbit/s: a 13 + 2n byte command,
    /// a 12 + 16n byte answer, the chip's 151 µs + 35 µs per block.
    static func read(blocks n: Int) -> Duration {
        let frame = AirFrame(reader: .bytes(13 + 2 * n), tag: .bytes(12 + 16 * n), processing: .nanoseconds(151_000 + 35_000 * n))
        return AirTimeModel.duration(of: frame, technology: .felica, bitRate: .kbps212)
    }

    /// AIRTIME.md's physical minimum for 208 B: reads of 4, 4, 4 and 1 blocks.
    static let minimum = read(blocks: 4) * 3 + read(blocks: 1)

    /// A Lite-S holding a full 208-byte message.
    func fullCard() async throws -> Type3Bench {
        let bench = try await Type3Bench(.felicaLiteS)
        try await Type3Engine().writeNDEF(F.message(length: 208), on: try await bench.connect())
        return bench
    }

    @Test func fullReadIsWithinTenPercentOfThePhysicalMinimum() async throws {
        let bench = try await fullCard()
        let meter = AirTimeMeter()
        let result = try await Type3Engine().readNDEF(on: try await bench.connect(meter: meter))
        #expect(result.message == F.message(length: 208))
        let statistics = meter.statistics
        #expect(statistics.commands == 4)
        // Reads of 4 (block 0, MC, 1, 2), 4, 4 and 3 blocks.
        #expect(statistics.airTime == Self.read(blocks: 4) * 3 + Self.read(blocks: 3))
        #expect(abs(Self.minimum / .microseconds(1) - 16_993) < 5)
        #expect(statistics.airTime <= Self.minimum * 1.10)
    }

    @Test func theCommonPatternTakesLonger() async throws {
        // Polling 12FC, the attribute block alone, then Nbr-sized reads of the 13 data blocks.
        let bench = try await fullCard()
        let meter = AirTimeMeter()
        let connection = try await bench.connect(meter: meter)
        _ = try await connection.transceive([0x00, 0x12, 0xFC, 0x01, 0x00], timeout: .milliseconds(10))
        for blocks in [[0], [1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13]] as [[UInt16]] {
            _ = try await connection.transceive(F.read(idm, blocks: blocks), timeout: .milliseconds(10))
        }
        let common = meter.statistics.airTime

        let ours = AirTimeMeter()
        _ = try await Type3Engine().readNDEF(on: try await bench.connect(meter: ours))
        #expect(ours.statistics.airTime < common)
        #expect(common > Self.minimum * 1.25)
    }

    @Test func oneBlockPerReadIsTheSlowPattern() async throws {
        let bench = try await fullCard()
        let meter = AirTimeMeter()
        let result = try await Type3Engine(maximumBlocksPerRead: 1).readNDEF(on: try await bench.connect(meter: meter))
        #expect(result.message == F.message(length: 208))
        #expect(meter.statistics.commands == 15)
        #expect(meter.statistics.airTime == Self.read(blocks: 1) * 15)
    }

    @Test func statusIsOneTwoBlockRead() async throws {
        let bench = try await fullCard()
        let meter = AirTimeMeter()
        let status = try await Type3Engine().queryStatus(on: try await bench.connect(meter: meter))
        #expect(status == NDEFStatus(state: .readWrite, capacity: 208, messageLength: 208))
        #expect(meter.statistics.commands == 1)
        #expect(meter.statistics.airTime == Self.read(blocks: 2))
    }
}
