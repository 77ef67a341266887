import ISO7816
import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// AIRTIME.md's goals for Type 4: an 8 KB message read within 1.10× of the physical minimum (one
/// extended READ BINARY chained at FSD 256: ≈ 721 ms at 106 kbit/s, ≈ 95 ms at 848 kbit/s),
/// measured from after activation, and compared with the common pattern of READ BINARY of at
/// most 251 bytes per command.
@Suite("Type4 air time")
struct Type4AirTimeTests {
    static let message = Type4Fixtures.message(size: 8190, seed: 4)

    /// Reads the 8 KB message with an engine through a reader; returns the air time in ms.
    func read(_ engine: Type4Engine, rate: BitRate, reader: SimulatedReaderConfiguration? = nil) async throws -> (ms: Double, commands: Int)
    {
        let tag = try Type4Tag(
            configuration: Type4Tag.Configuration(ndefFileSize: 8192, maxReadLength: 0xFFFF, extendedLength: true), message: Self.message)
        let bench = try await Type4Bench(tag, reader: reader ?? SimulatedReaderConfiguration(maximumBitRate: rate))
        #expect(bench.connection.bitRate == rate)
        let result = try await engine.readNDEF(on: bench.connection)
        #expect(result.message == Self.message)
        return (bench.milliseconds(), bench.meter.statistics.commands)
    }

    @Test("106 kbit/s: within 1.10× of 721 ms, and faster than READ BINARY of 251 bytes")
    func at106() async throws {
        let ours = try await read(Type4Engine(), rate: .kbps106)
        #expect(ours.ms <= 721 * 1.10, "took \(ours.ms) ms")
        #expect(ours.commands == 6)
        let common = try await read(Type4Engine(maximumReadLength: 251), rate: .kbps106)
        #expect(common.commands == 5 + 33)
        #expect(ours.ms < common.ms, "ours \(ours.ms) ms, common \(common.ms) ms")
    }

    @Test("848 kbit/s: within 1.10× of 95 ms")
    func at848() async throws {
        let ours = try await read(Type4Engine(), rate: .kbps848)
        #expect(ours.ms <= 95 * 1.10, "took \(ours.ms) ms")
        let common = try await read(Type4Engine(maximumReadLength: 251), rate: .kbps848)
        #expect(ours.ms < common.ms, "ours \(ours.ms) ms, common \(common.ms) ms")
    }

    @Test("a reader without extended APDUs falls back to 256-byte reads, close to the common pattern")
    func withoutExtendedAPDUs() async throws {
        let short = try await read(Type4Engine(), rate: .kbps106, reader: Type4Fixtures.shortReader(rate: .kbps106))
        let ours = try await read(Type4Engine(), rate: .kbps106)
        #expect(short.commands == 5 + 32)
        #expect(short.ms > ours.ms)
        #expect(short.ms < 721 * 1.20, "took \(short.ms) ms")
    }
}
