import NFCSimulator
import NFCTransport
import Testing

@Suite struct FieldPollingTests {
    @Test func pollingHonoursTheTechnologyMask() async throws {
        let field = SimulatedField()
        await field.place(ProbeTag())
        var vicinity = ProbeTag()
        vicinity.technology14443 = false
        vicinity.identifier = [0xE0, 0x04, 1, 2, 3, 4, 5, 6]
        await field.place(vicinity)
        #expect(try await field.targets(matching: .iso14443A).map(\.technology) == [.iso14443A])
        #expect(try await field.targets(matching: .iso15693).map(\.identifier) == [[0xE0, 0x04, 1, 2, 3, 4, 5, 6]])
        #expect(try await field.targets(matching: .felica).isEmpty)
        // Anticollision: both tags reported.
        #expect(try await field.targets(matching: .all).count == 2)
    }

    @Test func eventsReportPresentThenArrivalsAndDepartures() async throws {
        let field = SimulatedField()
        let first = await field.place(ProbeTag())
        let stream = await field.events(matching: .iso14443A)
        var iterator = stream.makeAsyncIterator()
        guard case .targetArrived(let present)? = await iterator.next() else {
            Issue.record("expected the tag already present")
            return
        }
        #expect(present.handle == first.rawValue)
        let second = await field.place(ProbeTag())
        guard case .targetArrived(let arrived)? = await iterator.next() else {
            Issue.record("expected an arrival")
            return
        }
        #expect(arrived.handle == second.rawValue)
        await field.remove(first)
        guard case .targetLeft(let left)? = await iterator.next() else {
            Issue.record("expected a departure")
            return
        }
        #expect(left.handle == first.rawValue)
    }

    @Test func placingPowersTheTagOn() async throws {
        let field = SimulatedField()
        let id = await field.place(ProbeTag())
        #expect(await field.tag(id, as: ProbeTag.self)?.powerOns == 1)
    }
}

@Suite struct FieldExchangeTests {
    @Test func exchangeAdvancesClockAndMeters() async throws {
        let harness = try await FieldHarness(ProbeTag())
        let start = harness.field.clock.now
        #expect(try await harness.send([0xA2, 3, 1, 2, 3, 4]) == [0x0A])
        #expect(try await harness.send([0x30, 3]) == [1, 2, 3, 4])
        let stats = harness.meter.statistics
        #expect(stats.commands == 2)
        #expect(stats.bytesSent == 8)
        #expect(stats.bytesReceived == 5)
        #expect(start.duration(to: harness.field.clock.now) == stats.airTime)
        // WRITE: reader 8 B with CRC (75 etu) + FDT + 4.1 ms + ACK (6 etu) + FDT.
        let etu = 128.0 / 13.56
        let write = 75 * etu + 86.43 + 4100 + 6 * etu + 86.43
        let read = 39 * etu + 86.43 + (1 + 9 * 6 + 1) * etu + 86.43
        #expect(abs(Double(stats.airTimeMicroseconds) - (write + read)) <= 1)
        #expect(await harness.field.statistics.commands == 2)
    }

    @Test func nakComesBackAsOneByte() async throws {
        let harness = try await FieldHarness(ProbeTag())
        #expect(try await harness.send([0x99]) == [0x00])
    }

    @Test func muteTagTimesOutAndChargesTheWait() async throws {
        let harness = try await FieldHarness(ProbeTag())
        await #expect(throws: TransportError(.timeout)) { try await harness.send([0xFF], timeout: .milliseconds(5)) }
        #expect(harness.meter.statistics.airTime > .milliseconds(5))
    }

    @Test func commandLongerThanTheReaderTakesIsRejected() async throws {
        var config = SimulatedReaderConfiguration.ideal
        config.limits.maxCommandLength = 4
        let harness = try await FieldHarness(ProbeTag(), configuration: config)
        await #expect(throws: TransportError(.frameTooLong)) { try await harness.send([0xA2, 3, 1, 2, 3, 4]) }
    }

    @Test func answerLongerThanTheReaderBufferIsRejected() async throws {
        var config = SimulatedReaderConfiguration.ideal
        config.limits.maxResponseLength = 3
        let harness = try await FieldHarness(ProbeTag(), configuration: config)
        await #expect(throws: TransportError(.frameTooLong)) { try await harness.send([0x30, 0]) }
    }

    @Test func disconnectedConnectionRefusesCommands() async throws {
        let harness = try await FieldHarness(ProbeTag())
        await harness.connection.disconnect()
        await #expect(throws: TransportError(.notConnected)) { try await harness.send([0x30, 0]) }
    }

    @Test func reactivationIsChargedAndReachesTheTag() async throws {
        let harness = try await FieldHarness(ProbeTag())
        try await harness.connection.reactivate()
        #expect(await harness.tag(as: ProbeTag.self)?.activations == 2)
        #expect(harness.meter.statistics.airTime > .zero)
        #expect(harness.meter.statistics.commands == 0)
    }
}

@Suite struct FieldFaultTests {
    @Test func removeAfterCommands() async throws {
        let harness = try await FieldHarness(ProbeTag())
        await harness.field.inject(.removeAfterCommands(2), into: harness.id)
        _ = try await harness.send([0x30, 0])
        _ = try await harness.send([0x30, 1])
        await #expect(throws: TransportError(.tagLost)) { try await harness.send([0x30, 2]) }
        #expect(await harness.field.isPresent(harness.id) == false)
        await #expect(throws: TransportError(.tagLost)) { try await harness.send([0x30, 2]) }
    }

    @Test(arguments: FieldFault.TearOutcome.allCases)
    func tornWriteKeepsOldOrNewData(_ outcome: FieldFault.TearOutcome) async throws {
        let harness = try await FieldHarness(ProbeTag())
        _ = try await harness.send([0xA2, 5, 1, 1, 1, 1])
        await harness.field.inject(.tear(command: 1, outcome: outcome), into: harness.id)
        await #expect(throws: TransportError(.tagLost)) { try await harness.send([0xA2, 5, 2, 2, 2, 2]) }
        let page = await harness.tag(as: ProbeTag.self)?.pages[5]
        #expect(page == (outcome == .oldData ? [1, 1, 1, 1] : [2, 2, 2, 2]))
        // The tag can be tapped again and still holds that state.
        #expect(await harness.field.reinsert(harness.id))
        let again = try await harness.field.connect(to: try await harness.field.targets(matching: .all)[0], meter: AirTimeMeter())
        #expect(try await again.transceive([0x30, 5], timeout: .milliseconds(10)) == page)
    }

    @Test func removalAtATimeCutsTheExchangeInFlight() async throws {
        let harness = try await FieldHarness(ProbeTag())
        let now = harness.field.clock.now
        await harness.field.inject(.removeAt(now.advanced(by: .milliseconds(3)), tear: .oldData), into: harness.id)
        await #expect(throws: TransportError(.tagLost)) { try await harness.send([0xA2, 5, 9, 9, 9, 9]) }
        #expect(harness.field.clock.now == now.advanced(by: .milliseconds(3)))
        #expect(await harness.tag(as: ProbeTag.self)?.pages[5] == [0, 0, 0, 0])
    }

    @Test func corruptedAnswers() async throws {
        let harness = try await FieldHarness(ProbeTag())
        _ = try await harness.send([0xA2, 1, 0x10, 0x20, 0x30, 0x40])
        await harness.field.inject(.corruptResponse(command: 1, .crcError), into: harness.id)
        await harness.field.inject(.corruptResponse(command: 2, .flipBits(byte: 2, mask: 0xFF)), into: harness.id)
        await #expect(throws: TransportError(.transmission)) { try await harness.send([0x30, 1]) }
        #expect(try await harness.send([0x30, 1]) == [0x10, 0x20, 0xCF, 0x40])
        #expect(try await harness.send([0x30, 1]) == [0x10, 0x20, 0x30, 0x40])
    }

    @Test func lateAnswerTimesOut() async throws {
        let harness = try await FieldHarness(ProbeTag())
        await harness.field.inject(.delayResponse(command: 1, by: .milliseconds(50)), into: harness.id)
        await #expect(throws: TransportError(.timeout)) { try await harness.send([0x30, 1], timeout: .milliseconds(10)) }
        #expect(try await harness.send([0x30, 1], timeout: .milliseconds(10)) == [0, 0, 0, 0])
    }
}

@Suite struct FieldReaderLimitTests {
    @Test func pseudoAPDUReaderCarriesOnlyReadsAndWrites() async throws {
        var config = SimulatedReaderConfiguration.ideal
        config.limits.nativeCommands = .readAndWriteOnly(readLength: 16)
        let harness = try await FieldHarness(ProbeTag(), configuration: config)
        #expect(try await harness.send([0x30, 0x01]).count == 4)
        #expect(try await harness.send([0xA2, 0x01, 1, 2, 3, 4]) == [0x0A])
        await #expect(throws: TransportError(.unsupportedCommand)) { try await harness.send([0x60]) }
        // Refused commands never reach the tag.
        #expect(harness.meter.statistics.commands == 2)
    }
}
