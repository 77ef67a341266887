import NFCSimulator
import NFCTransport
import Testing

/// AIRTIME.md: reading 8 KB from a Type 4 Tag through the field, in READ BINARY chunks and in one
/// chained extended READ BINARY, at 106 and 848 kbit/s (within 10 % of the table).
@Suite("Type4 air time")
struct Type4AirTimeTests {
    static let content = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    /// Places a tag holding 8 KB, selects the application and the NDEF file, then resets the meter.
    func prepared(extended: Bool, reader: SimulatedReaderConfiguration) async throws -> FieldHarness {
        let tag = try Type4Tag(configuration: .init(ndefFileSize: 8194, extendedLength: extended), message: Self.content)
        let harness = try await FieldHarness(tag, configuration: reader)
        _ = try await harness.send([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
        _ = try await harness.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])
        harness.meter.reset()
        return harness
    }

    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    @Test("8 KB in READ BINARY chunks of MLe = 255 at 106 kbit/s ≈ 752 ms")
    func chunkedAt106() async throws {
        let harness = try await prepared(extended: false, reader: .baseRate)
        #expect(harness.connection.bitRate == .kbps106)
        var data: [UInt8] = []
        while data.count < 8192 {
            let offset = 2 + data.count
            let le = min(255, 8192 - data.count)
            let answer = try await harness.send([0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(le)])
            #expect(answer.suffix(2) == [0x90, 0x00])
            data += answer.dropLast(2)
        }
        #expect(data == Self.content)
        let stats = harness.meter.statistics
        #expect(stats.commands == 33)
        let ms = milliseconds(stats.airTime)
        #expect(ms > 752 * 0.9 && ms < 752 * 1.1, "took \(ms) ms")
    }

    @Test("8 KB in one extended READ BINARY, chained at FSD 256: ≈ 721 ms at 106 kbit/s")
    func extendedAt106() async throws {
        let harness = try await prepared(extended: true, reader: .baseRate)
        let answer = try await harness.send([0x00, 0xB0, 0x00, 0x02, 0x00, 0x20, 0x00])
        #expect(Array(answer.dropLast(2)) == Self.content)
        let ms = milliseconds(harness.meter.statistics.airTime)
        #expect(ms > 721 * 0.9 && ms < 721 * 1.1, "took \(ms) ms")
    }

    @Test("8 KB in one extended READ BINARY at 848 kbit/s ≈ 95 ms")
    func extendedAt848() async throws {
        let harness = try await prepared(extended: true, reader: .ideal)
        #expect(harness.connection.bitRate == .kbps848)
        let answer = try await harness.send([0x00, 0xB0, 0x00, 0x02, 0x00, 0x20, 0x00])
        #expect(answer.count == 8194)
        let ms = milliseconds(harness.meter.statistics.airTime)
        #expect(ms > 95 * 0.9 && ms < 95 * 1.1, "took \(ms) ms")
    }

    @Test("a smaller FSD means more chained blocks and more air time")
    func smallerFrameSize() async throws {
        let small = SimulatedReaderConfiguration(maximumBitRate: .kbps106, frameSize: 64)
        let harness = try await prepared(extended: true, reader: small)
        _ = try await harness.send([0x00, 0xB0, 0x00, 0x02, 0x00, 0x20, 0x00])
        let ms = milliseconds(harness.meter.statistics.airTime)
        // 8194 B in blocks of 61: 135 exchanges instead of 33.
        #expect(ms > 721 * 1.05, "took \(ms) ms")
    }
}
