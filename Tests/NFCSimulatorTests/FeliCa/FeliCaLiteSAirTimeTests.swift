import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Lite-S air time")
struct FeliCaLiteSAirTimeTests {
    typealias F = FeliCaCommandFrames
    let idm = FeliCaLiteSTag.defaultIDm
    let pmm = FeliCaLiteSTag.defaultPMm

    @Test("Reading 208 B in four reads of 4, 4, 4 and 1 blocks takes ≈ 17 ms (AIRTIME.md), within 5%")
    func fullRead() async throws {
        let harness = try await FieldHarness(FeliCaLiteSTag(formatting: .ndef))
        let spans: [[UInt16]] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12]]
        var bytes = 0
        for span in spans {
            let answer = try await harness.send(F.read(idm, service: 0x000B, blocks: span))
            #expect(answer.count == 12 + 16 * span.count)
            bytes += answer.count - 12
        }
        #expect(bytes == 208)
        let statistics = harness.meter.statistics
        #expect(statistics.commands == 4)
        let milliseconds = Double(statistics.airTimeMicroseconds) / 1_000
        #expect(abs(milliseconds - 17.0) / 17.0 < 0.05)
        // The same figure from the frame model: 6 preamble + 2 sync + LEN + payload + 2 CRC at 212 kbit/s.
        var expected = Duration.zero
        for span in spans {
            let processing = F.duration(151_000 + 35_000 * Double(span.count))
            let frame = AirFrame(reader: .bytes(13 + 2 * span.count), tag: .bytes(12 + 16 * span.count), processing: processing)
            expected += AirTimeModel.duration(of: frame, technology: .felica, bitRate: .kbps212)
        }
        #expect(abs((statistics.airTime - expected) / .microseconds(1)) < 1)
    }

    @Test("Actual read and write times stay under the PMm maximum response times", arguments: 1...4)
    func underPMmMaximum(blocks: Int) {
        var tag = FeliCaLiteSTag()
        let read = tag.respond(to: F.read(idm, service: 0x000B, blocks: (0..<blocks).map(UInt16.init)), context: ExchangeContext())
        let readMaximum = FeliCaTiming.maximumResponseTime(pmm: pmm, .read, units: blocks)
        #expect(readMaximum == F.duration(FeliCaTiming.unitNanoseconds * Double(blocks + 2)))
        #expect(read.processingTime < readMaximum)
        let write = tag.respond(to: F.write(idm, service: 0x0009, block: 1, data: F.filled(1)), context: ExchangeContext())
        let writeMaximum = FeliCaTiming.maximumResponseTime(pmm: pmm, .write, units: 1)
        #expect(writeMaximum == F.duration(FeliCaTiming.unitNanoseconds * 5 * 4))
        #expect(write.processingTime == .microseconds(2_351))
        #expect(write.processingTime < writeMaximum)
    }

    @Test("The PMm formula: T = 256·16/fc · ((B+1)·n + A+1) · 4^E")
    func formula() {
        // E = 2, B = 3, A = 5: 302.06 µs · (4·3 + 6) · 16.
        let time = FeliCaTiming.maximumResponseTime(parameter: 0b10_011_101, units: 3)
        #expect(abs(time / .microseconds(1) - 302.064 * 18 * 16) < 1)
        #expect(FeliCaTiming.maximumResponseTime(parameter: 0x00, units: 0) == F.duration(FeliCaTiming.unitNanoseconds))
    }

    @Test("A write exchange is charged its EEPROM time; a silent tag costs the reader's timeout")
    func writeAndTimeout() async throws {
        let harness = try await FieldHarness(FeliCaLiteSTag())
        _ = try await harness.send(F.write(idm, service: 0x0009, block: 2, data: F.filled(2)))
        let write = harness.meter.reset().airTime
        let frame = AirFrame(reader: .bytes(31), tag: .bytes(11), processing: .microseconds(2_351))
        #expect(write == AirTimeModel.duration(of: frame, technology: .felica, bitRate: .kbps212))
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send([0x0C] + idm, timeout: .milliseconds(5))
        }
        #expect(harness.meter.statistics.airTime > .milliseconds(5))
    }
}
