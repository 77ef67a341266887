import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The chips in a ``SimulatedField``: air time per AIRTIME.md and the transport's view of NAKs.
@Suite struct Type2FieldTests {
    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    /// WUPA, two cascade SELECTs with the known UID: ≈ 2.9 ms (AIRTIME.md).
    @Test func activationTakesAbout2Point9Milliseconds() async throws {
        let field = SimulatedField()
        await field.place(Type2Tag(model: .ntag213))
        let target = try #require(try await field.targets(matching: .iso14443A).first)
        let meter = AirTimeMeter()
        let connection = try await field.connect(to: target, meter: meter)
        let time = Self.microseconds(meter.statistics.airTime)
        #expect(abs(time - 2925.6) < 1, "activation took \(time) µs")
        #expect(connection.bitRate == .kbps106)
        #expect(connection.target.parameters == .iso14443A(.init(atqa: 0x0044, sak: 0x00)))
        #expect(!connection.target.speaksISODEP)
    }

    /// READ: 4-byte frame, 18-byte answer, two frame delays: 2089 µs (AIRTIME.md "READ ≈ 2.09 ms").
    @Test func readTakes2089Microseconds() async throws {
        let harness = try await FieldHarness(Type2Tag(model: .ntag216))
        let answer = try await harness.send([0x30, 0x04])
        #expect(answer.count == 16)
        let time = Self.microseconds(harness.meter.statistics.airTime)
        #expect(abs(time - 2089) < 1, "READ took \(time) µs")
    }

    /// WRITE: 8-byte frame, 4.1 ms EEPROM programming, 4-bit ACK, two frame delays: ≈ 5.04 ms
    /// (AIRTIME.md's ≈ 4.95 ms leaves out the reader's turnaround after the ACK).
    @Test func writeTakesAboutFiveMilliseconds() async throws {
        let harness = try await FieldHarness(Type2Tag(model: .ntag213))
        let answer = try await harness.send([0xA2, 0x04, 0x01, 0x02, 0x03, 0x04])
        #expect(answer == [0x0A])
        let time = Self.microseconds(harness.meter.statistics.airTime)
        #expect(abs(time - 5037.5) < 1, "WRITE took \(time) µs")
        #expect(await harness.tag(as: Type2Tag.self)?.page(4) == [0x01, 0x02, 0x03, 0x04])
    }

    /// One FAST_READ of NTAG216's 888 bytes of user memory: ≈ 76.3 ms, the physical minimum of
    /// AIRTIME.md ("1 FAST_READ ≈ 77 ms").
    @Test func fastReadOfTheNTAG216UserMemory() async throws {
        let harness = try await FieldHarness(Type2Tag(model: .ntag216))
        let answer = try await harness.send([0x3A, 0x04, 0xE1], timeout: .milliseconds(200))
        #expect(answer.count == 888)
        let time = Self.microseconds(harness.meter.statistics.airTime)
        #expect(abs(time - 76_255) < 1, "FAST_READ took \(time) µs")
        #expect(time < 77_000)
    }

    @Test func nakThenSilenceThenReactivation() async throws {
        let harness = try await FieldHarness(Type2Tag(model: .ntag213))
        #expect(try await harness.send([0x30, 0xFF]) == [0x00])
        await #expect(throws: TransportError(.timeout)) { try await harness.send([0x30, 0x00], timeout: .milliseconds(5)) }
        try await harness.connection.reactivate()
        #expect(try await harness.send([0x30, 0x00]).count == 16)
    }

    @Test func tornWriteLeavesOldOrNewPage() async throws {
        for outcome in FieldFault.TearOutcome.allCases {
            let harness = try await FieldHarness(Type2Tag(model: .ntag213))
            await harness.field.inject(.tear(command: 1, outcome: outcome), into: harness.id)
            await #expect(throws: TransportError(.tagLost)) { try await harness.send([0xA2, 0x04, 0x01, 0x02, 0x03, 0x04]) }
            let page = await harness.tag(as: Type2Tag.self)?.page(4)
            #expect(page == (outcome == .oldData ? [0x03, 0x00, 0xFE, 0x00] : [0x01, 0x02, 0x03, 0x04]))
        }
    }

    @Test func readerBufferBoundsFastRead() async throws {
        var configuration = SimulatedReaderConfiguration.baseRate
        configuration.limits = ExchangeLimits(
            maxCommandLength: 64, maxResponseLength: 252, extendedLengthAPDUs: false, nativeCommands: .all)
        let harness = try await FieldHarness(Type2Tag(model: .ntag216), configuration: configuration)
        #expect(try await harness.send([0x3A, 0x04, 0x42]).count == 252)
        await #expect(throws: TransportError(.frameTooLong)) { try await harness.send([0x3A, 0x04, 0x43]) }
    }
}
