import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Standard commands without lists")
struct FeliCaStandardCommandTests {
    typealias F = FeliCaCommandFrames
    let tag = FeliCaStandardTag()
    var transit: [UInt8] { tag.idm(ofSystem: 0) }
    var common: [UInt8] { tag.idm(ofSystem: 1) }

    private func send(_ frame: [UInt8], to card: FeliCaStandardTag? = nil) -> [UInt8]? {
        var copy = card ?? tag
        return F.reply(copy.respond(to: frame, context: ExchangeContext(bitRate: .kbps424)))
    }

    @Test("Request Service returns key versions, FFFF for nodes the system lacks")
    func requestService() {
        let nodes: [UInt16] = [0x0000, 0x1000, 0x1048, 0x104B, 0x1108, 0x1234]
        var frame: [UInt8] = [0x02] + common + [UInt8(nodes.count)]
        for node in nodes { frame += [UInt8(node & 0xFF), UInt8(node >> 8)] }
        let expected: [UInt8] = [0x03] + common + [0x06, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0xFF, 0xFF]
        #expect(send(frame) == expected)
        // The same codes in the transit system do not exist there.
        let inTransit = send([0x02] + transit + [0x01, 0x48, 0x10])
        #expect(inTransit == [0x03] + transit + [0x01, 0xFF, 0xFF])
    }

    @Test("Request Service with 0 or 33 nodes, or a short list, gets no answer")
    func requestServiceMalformed() {
        #expect(send([0x02] + common + [0x00]) == nil)
        #expect(send([0x02] + common + [0x21] + [UInt8](repeating: 0, count: 66)) == nil)
        #expect(send([0x02] + common + [0x02, 0x00, 0x00, 0x00]) == nil)
        #expect(send([0x02] + common) == nil)
    }

    @Test("Request Response returns the mode, 0 without authentication")
    func requestResponse() {
        #expect(send([0x04] + transit) == [0x05] + transit + [0x00])
        #expect(send([0x04] + transit + [0x00]) == nil)
    }

    @Test("Request System Code lists the systems, big endian, from any system's IDm")
    func requestSystemCode() {
        #expect(send([0x0C] + transit) == [0x0D] + transit + [0x02, 0x00, 0x03, 0xFE, 0x00])
        #expect(send([0x0C] + common) == [0x0D] + common + [0x02, 0x00, 0x03, 0xFE, 0x00])
    }

    @Test(
        "Search Service Code walks areas and services in code order",
        arguments: [
            (0, [UInt8(0x00), 0x00, 0xFE, 0xFF]), (1, [0x00, 0x10, 0xFF, 0x17]), (2, [0x09, 0x10]),
            (4, [0x4B, 0x10]), (8, [0xD3, 0x10]), (11, [0x08, 0x11]), (12, [0xFF, 0xFF]), (0xFFFF, [0xFF, 0xFF]),
        ])
    func searchServiceCode(index: Int, expected: [UInt8]) {
        let frame: [UInt8] = [0x0A] + common + [UInt8(index & 0xFF), UInt8(index >> 8)]
        #expect(send(frame) == [0x0B] + common + expected)
    }

    @Test("Search Service Code in the transit system finds its sub-area and overlap services")
    func searchTransit() {
        let answers = (0..<9).map { send([0x0A] + transit + [UInt8($0), 0x00])?.dropFirst(9) }
        #expect(
            answers.map { $0.map(Array.init) } == [
                [0x00, 0x00, 0xFE, 0xFF], [0x40, 0x00, 0xFF, 0x07], [0x88, 0x00], [0x8B, 0x00],
                [0xD0, 0x00], [0xD7, 0x00], [0x0C, 0x01], [0x0F, 0x01], [0xFF, 0xFF],
            ])
    }

    @Test("Request Specification Version: flags, format 00, basic version, option versions (little endian)")
    func specificationVersion() {
        #expect(send([0x3C] + transit + [0x00, 0x00]) == [0x3D] + transit + [0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x01])
        #expect(send([0x3C] + transit) == nil)
    }

    @Test("Reset Mode answers 00 00 and leaves mode 0")
    func resetMode() {
        var card = tag
        let reply = F.reply(card.respond(to: [0x3E] + common + [0x00, 0x00], context: ExchangeContext()))
        #expect(reply == [0x3F] + common + [0x00, 0x00])
        #expect(card.mode == 0)
        #expect(send([0x3E] + common + [0x00]) == nil)
    }

    @Test("A card without a specification version ignores 3C and 3E")
    func olderCard() throws {
        let card = try FeliCaStandardTag(systems: FeliCaStandardTag.defaultSystems, specificationVersion: nil)
        #expect(send([0x3C] + transit + [0x00, 0x00], to: card) == nil)
        #expect(send([0x3E] + transit + [0x00, 0x00], to: card) == nil)
        #expect(send([0x04] + transit, to: card) == [0x05] + transit + [0x00])
    }

    @Test(
        "Request Service v2, authentication and unknown codes get no answer",
        arguments: [UInt8(0x32), 0x10, 0x12, 0x14, 0x16, 0x38, 0x40, 0xFE])
    func unsupported(code: UInt8) {
        #expect(send([code] + common + [0x01, 0x09, 0x10]) == nil)
    }

    @Test("Fixed-time commands answer within the PMm's D3 maximum; through the field at 424 kbit/s")
    func timing() async throws {
        var card = tag
        let answer = card.respond(to: [0x0C] + transit, context: ExchangeContext())
        #expect(answer.processingTime < FeliCaTiming.maximumResponseTime(pmm: tag.pmm, .fixed, units: 0))
        let service = card.respond(to: [0x02] + transit + [0x02, 0x8B, 0x00, 0x88, 0x00], context: ExchangeContext())
        #expect(service.processingTime < FeliCaTiming.maximumResponseTime(pmm: tag.pmm, .requestService, units: 2))
        let harness = try await FieldHarness(tag)
        let reply = try await harness.send([0x0C] + transit)
        #expect(reply.count == 14)
        let frame = AirFrame(reader: .bytes(9), tag: .bytes(14), processing: .microseconds(250))
        #expect(harness.meter.statistics.airTime == AirTimeModel.duration(of: frame, technology: .felica, bitRate: .kbps424))
    }
}
