import NFCPCSC
import NFCTags
import NFCTransport

/// Read-write cycles against an emulated Type 4 card through pcscd for a given time: connect,
/// write a message of varying size, read it back and compare, disconnect. Every hundredth
/// cycle uses a new driver (a new PC/SC context), so context and card handles that are not
/// released show up as descriptor growth.
enum PCSCSoak {
    static func run(reader: String, seconds: Double, samples: Int) async throws -> (SampleLog, Double, Int) {
        var log = SampleLog(phase: "pcsc")
        log.take(after: 0)
        let clock = ContinuousClock()
        let start = clock.now
        let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        let sampleEvery = Duration.milliseconds(Int(seconds * 1000 / Double(max(1, samples))))
        var nextSample = start.advanced(by: sampleEvery)
        var driver = PCSCDriver(readerFilter: reader)
        var cycle = 0
        let engine = Type4Engine()
        while clock.now < end {
            if cycle % 100 == 0 { driver = PCSCDriver(readerFilter: reader) }
            guard let target = try await driver.targets(matching: .all).first else {
                throw SimulatedSoak.Failure(description: "cycle \(cycle): no card in \(reader)")
            }
            let connection = try await driver.connect(to: target, meter: AirTimeMeter())
            let wanted = try SimulatedSoak.message(cycle: cycle)
            try await engine.writeNDEF(wanted, on: connection)
            let read = try await engine.readNDEF(on: connection)
            // The driver from many tasks at once: eight SELECTs of the NDEF application on the
            // one card handle, each of which must come back whole with 9000.
            let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
            let answers = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<8 { group.addTask { try await connection.transceive(select, timeout: .seconds(2)) } }
                return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
            }
            guard answers.count == 8, answers.allSatisfy({ $0.suffix(2) == [0x90, 0x00] }) else {
                throw SimulatedSoak.Failure(description: "cycle \(cycle): concurrent SELECTs answered \(answers)")
            }
            await connection.disconnect()
            guard read.message == wanted else { throw SimulatedSoak.Failure(description: "cycle \(cycle): read back different bytes") }
            cycle += 1
            if clock.now >= nextSample {
                log.take(after: cycle)
                nextSample = nextSample.advanced(by: sampleEvery)
            }
        }
        log.take(after: cycle)
        let elapsed = start.duration(to: clock.now) / .seconds(1)
        return (log, Double(cycle) / elapsed, cycle)
    }
}
