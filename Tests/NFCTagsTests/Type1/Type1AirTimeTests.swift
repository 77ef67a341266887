import NFCSimulator
import NFCTags
import NFCTransport
import Testing

/// The speed goal: reading a full Type 1 tag within 1.10× of its physical minimum.
///
/// The minimum, from the air-time model of the BCM20203T512 data sheet's frames (each command byte
/// in its own frame): the static memory needs one RALL (HR0, HR1 and all 120 bytes); a full Topaz
/// 512 needs RALL for blocks 00h–0Eh and the three other segments, each cheapest by RSEG (a
/// segment by READ8 takes 16 commands of 14 bytes). No command reads more bytes per air time.
@Suite struct Type1AirTimeTests {
    static func time(_ reader: Int, _ tag: Int) -> Duration {
        AirTimeModel.duration(of: AirFrame(reader: .type1Command(reader), tag: .bytes(tag)), technology: .iso14443A, bitRate: .kbps106)
    }
    static let readAll = time(7, 122)
    static let readSegment = time(14, 129)
    static let read8 = time(14, 9)

    func fullRead(_ model: Type1Tag.Model, engine: Type1Engine = Type1Engine()) async throws -> ExchangeStatistics {
        let bench = await Type1Bench(model)
        let capacity = try await engine.queryStatus(on: try await bench.connect()).capacity
        let message = type1Message(length: capacity)
        try await engine.writeNDEF(message, on: try await bench.connect())
        let meter = AirTimeMeter()
        #expect(try await engine.readNDEF(on: try await bench.connect(meter: meter)).message == message)
        return meter.statistics
    }

    @Test func theCommandsCostWhatTheModelSays() {
        #expect(Self.readSegment < Self.read8 * 5)
        #expect(Self.readSegment > Self.read8 * 4)
        #expect(Self.readAll > .milliseconds(11) && Self.readAll < .milliseconds(13))
    }

    /// Measured: RALL alone, ≈ 12.1 ms.
    @Test func aFullTopaz96IsOneRALL() async throws {
        let statistics = try await fullRead(.topaz96)
        #expect(statistics.commands == 1)
        #expect(statistics.airTime <= Self.readAll * 1.10)
    }

    /// Measured: RALL and 3 RSEG, ≈ 52 ms.
    @Test func aFullTopaz512IsReadWithinTenPercentOfThePhysicalMinimum() async throws {
        let statistics = try await fullRead(.topaz512)
        let minimum = Self.readAll + Self.readSegment * 3
        #expect(statistics.commands == 4)
        #expect(statistics.airTime <= minimum * 1.10)
        let blockByBlock = try await fullRead(.topaz512, engine: Type1Engine(readsSegments: false))
        #expect(blockByBlock.commands == 1 + 48)
        #expect(blockByBlock.airTime > statistics.airTime * 2)
    }
}
