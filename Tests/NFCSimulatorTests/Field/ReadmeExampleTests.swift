import NFCSimulator
import NFCTransport
import Testing

/// The README's simulator example, kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func readmeExample() async throws {
        let field = SimulatedField()
        let id = await field.place(try VirtualTagKind.ntag216.make())
        let target = try await field.targets(matching: .iso14443A)[0]
        let meter = AirTimeMeter()
        let tag = try await field.connect(to: target, meter: meter)
        let page4 = try await tag.transceive([0x30, 0x04], timeout: .milliseconds(5))
        #expect(page4.prefix(4) == [0x03, 0x00, 0xFE, 0x00])
        await field.inject(.tear(command: 1, outcome: .oldData), into: id)
        await #expect(throws: TransportError(.tagLost)) { try await tag.transceive([0xA2, 0x04, 1, 2, 3, 4], timeout: .milliseconds(10)) }
        #expect(meter.statistics.commands == 2)
        #expect(meter.statistics.bytesReceived == 16)
        let torn = try #require(await field.tag(id, as: Type2Tag.self))
        #expect(torn.page(4) == [0x03, 0x00, 0xFE, 0x00])
    }
}
