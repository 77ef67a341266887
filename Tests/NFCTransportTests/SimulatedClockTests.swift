import NFCTransport
import Testing

@Suite struct SimulatedClockTests {
    @Test func advanceWakesSleepersInOrder() async throws {
        let clock = SimulatedClock()
        let task = Task {
            try await clock.sleep(until: clock.now.advanced(by: .seconds(60)))
            return clock.now.offset
        }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let woke = try await task.value
        #expect(woke == .seconds(60))
    }

    @Test func cancellationEndsSleep() async {
        let clock = SimulatedClock()
        let task = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func pastDeadlineReturnsAtOnce() async throws {
        let clock = SimulatedClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: SimulatedClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func meterAddsAndResets() {
        let meter = AirTimeMeter()
        meter.record(sent: 2, received: 16, airTime: .microseconds(2089))
        meter.record(sent: 6, received: 1, airTime: .microseconds(5037))
        #expect(meter.statistics == ExchangeStatistics(commands: 2, bytesSent: 8, bytesReceived: 17, airTime: .microseconds(7126)))
        #expect(meter.reset().airTimeMicroseconds == 7126)
        #expect(meter.statistics.commands == 0)
    }
}
