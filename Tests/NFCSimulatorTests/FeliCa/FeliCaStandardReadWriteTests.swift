import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Standard read and write without encryption")
struct FeliCaStandardReadWriteTests {
    typealias F = FeliCaCommandFrames
    let tag = FeliCaStandardTag()
    var transit: [UInt8] { tag.idm(ofSystem: 0) }
    var common: [UInt8] { tag.idm(ofSystem: 1) }

    private func send(_ card: inout FeliCaStandardTag, _ frame: [UInt8]) -> [UInt8]? {
        F.reply(card.respond(to: frame, context: ExchangeContext(bitRate: .kbps424)))
    }

    private func block(_ prefix: UInt8...) -> [UInt8] { prefix + [UInt8](repeating: 0, count: 16 - prefix.count) }

    @Test("Read through a read-only overlap code, several services in one command")
    func readServices() {
        var card = tag
        let frame = F.read(
            transit, services: [0x008B, 0x010F, 0x00D7],
            elements: [F.element(0), F.element(0, order: 1), F.element(9, order: 1), F.element(0, order: 2)])
        let expected =
            [0x07] + transit + [0x00, 0x00, 0x04] + block(0x01, 0x10, 0x20, 0x24, 0x05, 0x31)
            + block(0x16, 0x01, 0x00, 0x02, 0x00) + block(0x16, 0x01, 0x00, 0x02, 0x09) + block(0xE8, 0x03)
        #expect(send(&card, frame) == expected)
    }

    @Test("Element errors: position from 1 in Status Flag 1")
    func elementErrors() {
        var card = tag
        let ok = F.element(0)
        #expect(send(&card, F.read(transit, service: 0x0088, blocks: [0])) == F.status(0x07, transit, 0x01, 0xA5))
        #expect(send(&card, F.read(transit, service: 0x1009, blocks: [0])) == F.status(0x07, transit, 0x01, 0xA6))
        #expect(send(&card, F.read(transit, service: 0x0040, blocks: [0])) == F.status(0x07, transit, 0x01, 0xA6))
        #expect(send(&card, F.read(transit, services: [0x008B], elements: [ok, F.element(1)])) == F.status(0x07, transit, 0x02, 0xA8))
        #expect(
            send(&card, F.read(transit, services: [0x008B], elements: [ok, ok, F.element(0, order: 1)]))
                == F.status(0x07, transit, 0x03, 0xA3))
        #expect(
            send(&card, F.read(transit, services: [0x008B], elements: [F.element(0, accessMode: 1)])) == F.status(0x07, transit, 0x01, 0xA7)
        )
        #expect(send(&card, F.read(common, service: 0x1108, blocks: [0])) == F.status(0x07, common, 0x01, 0xA5))
    }

    @Test("Up to 12 blocks per read; 13 is an illegal Number of Block")
    func readLimits() {
        var card = tag
        let twelve = F.read(transit, service: 0x010F, blocks: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1])
        #expect(send(&card, twelve)?.count == 12 + 16 * 12)
        let thirteen = F.read(transit, service: 0x010F, blocks: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2])
        #expect(send(&card, thirteen) == F.status(0x07, transit, 0xFF, 0xA2))
        let services = [UInt16](repeating: 0x008B, count: 17)
        #expect(send(&card, F.read(transit, services: services, elements: [F.element(0)])) == F.status(0x07, transit, 0xFF, 0xA1))
        #expect(send(&card, F.read(transit, services: [], elements: [F.element(0)])) == F.status(0x07, transit, 0xFF, 0xA1))
    }

    @Test("Random read/write service without key: the write lands")
    func randomWrite() {
        var card = tag
        let answer = card.respond(to: F.write(common, service: 0x1009, block: 2, data: F.filled(0x5C)), context: ExchangeContext())
        #expect(F.reply(answer) == [0x09] + common + [0x00, 0x00])
        #expect(answer.writesMemory)
        #expect(send(&card, F.read(common, service: 0x1009, blocks: [2])) == [0x07] + common + [0x00, 0x00, 0x01] + F.filled(0x5C))
    }

    @Test("Read-only and keyed codes refuse writes: A5; a write is all or nothing")
    func refusedWrites() {
        var card = tag
        #expect(send(&card, F.write(common, service: 0x104B, block: 0, data: F.filled(1))) == F.status(0x09, common, 0x01, 0xA5))
        #expect(send(&card, F.write(common, service: 0x1048, block: 0, data: F.filled(1))) == F.status(0x09, common, 0x01, 0xA5))
        #expect(send(&card, F.write(transit, service: 0x00D7, block: 0, data: F.filled(1))) == F.status(0x09, transit, 0x01, 0xA5))
        let mixed = F.write(
            common, services: [0x1009, 0x104B], elements: [F.element(0), F.element(0, order: 1)], data: [F.filled(7), F.filled(8)])
        #expect(send(&card, mixed) == F.status(0x09, common, 0x02, 0xA5))
        #expect(send(&card, F.read(common, service: 0x1009, blocks: [0])) == [0x07] + common + [0x00, 0x00, 0x01] + F.filled(0))
        let eleven = F.write(
            common, services: [0x1009], elements: (0..<11).map { _ in F.element(0) }, data: (0..<11).map { _ in F.filled(1) })
        #expect(send(&card, eleven) == F.status(0x09, common, 0xFF, 0xA2))
        #expect(
            send(&card, F.write(common, service: 0x1009, block: 0, data: F.filled(1), accessMode: 1)) == F.status(0x09, common, 0x01, 0xA7))
    }

    @Test("A cyclic write puts the new record first and drops the oldest")
    func cyclicWrite() {
        var card = tag
        for record in 1...6 {
            #expect(
                send(&card, F.write(common, service: 0x108D, block: 0, data: F.filled(UInt8(record)))) == [0x09] + common + [0x00, 0x00])
        }
        let expected = [0x07] + common + [0x00, 0x00, 0x05] + [6, 5, 4, 3, 2].flatMap { F.filled(UInt8($0)) }
        #expect(send(&card, F.read(common, service: 0x108F, blocks: [0, 1, 2, 3, 4])) == expected)
        let six = F.write(
            common, services: [0x108D], elements: (0..<6).map { F.element(UInt16($0 % 5)) }, data: (0..<6).map { _ in F.filled(9) })
        #expect(send(&card, six) == F.status(0x09, common, 0x06, 0xAF))
        let twice = F.write(common, services: [0x108D], elements: [F.element(0), F.element(0)], data: [F.filled(7), F.filled(8)])
        #expect(send(&card, twice) == F.status(0x09, common, 0x02, 0xA8))
        let gap = F.write(common, services: [0x108D], elements: [F.element(1)], data: [F.filled(7)])
        #expect(send(&card, gap) == F.status(0x09, common, 0x01, 0xA8))
        #expect(send(&card, F.read(common, service: 0x108F, blocks: [0]))?.suffix(16).first == 6)
    }

    @Test("Purse decrement and cashback (access mode 001) move the balance, within limits")
    func purse() {
        var card = tag
        var decrement = F.filled(0)
        decrement[0] = 100
        decrement[14] = 0x01
        #expect(send(&card, F.write(common, service: 0x10D5, block: 0, data: decrement, accessMode: 1)) == [0x09] + common + [0x00, 0x00])
        var balance = send(&card, F.read(common, service: 0x10D7, blocks: [0]))?.suffix(16).map { $0 }
        #expect(balance?.prefix(4) == [0x90, 0x01, 0x00, 0x00])  // 500 − 100
        #expect(balance?[14] == 0x01)
        decrement[0] = 0x91
        decrement[1] = 0x01  // 401 > 400
        #expect(
            send(&card, F.write(common, service: 0x10D5, block: 0, data: decrement, accessMode: 1)) == F.status(0x09, common, 0x01, 0x01))
        var cashback = F.filled(0)
        cashback[0] = 0xC9  // 201 > cashback data 200
        #expect(
            send(&card, F.write(common, service: 0x10D3, block: 0, data: cashback, accessMode: 1)) == F.status(0x09, common, 0x01, 0x02))
        cashback[0] = 0x64
        #expect(send(&card, F.write(common, service: 0x10D3, block: 0, data: cashback)) == [0x09] + common + [0x00, 0x00])
        balance = send(&card, F.read(common, service: 0x10D7, blocks: [0]))?.suffix(16).map { $0 }
        #expect(balance?.prefix(4) == [0xF4, 0x01, 0x00, 0x00])  // 400 + 100
    }

    @Test("Read and write times stay under the PMm maximum", arguments: [1, 4, 12])
    func underPMmMaximum(blocks: Int) {
        var card = tag
        let read = card.respond(
            to: F.read(transit, service: 0x010F, blocks: (0..<blocks).map { UInt16($0 % 10) }), context: ExchangeContext())
        #expect(read.processingTime < FeliCaTiming.maximumResponseTime(pmm: tag.pmm, .read, units: blocks))
        let count = min(blocks, 4)
        let write = card.respond(
            to: F.write(
                common, services: [0x1009], elements: (0..<count).map { F.element(UInt16($0)) }, data: (0..<count).map { _ in F.filled(1) }),
            context: ExchangeContext())
        #expect(F.reply(write) == [0x09] + common + [0x00, 0x00])
        #expect(write.processingTime < FeliCaTiming.maximumResponseTime(pmm: tag.pmm, .write, units: count))
    }

    @Test("Through the field: write then read at 424 kbit/s, a wrong IDm times out")
    func throughField() async throws {
        let harness = try await FieldHarness(tag)
        #expect(try await harness.send(F.write(common, service: 0x1009, block: 3, data: F.filled(0xEE))) == [0x09] + common + [0x00, 0x00])
        #expect(
            try await harness.send(F.read(common, service: 0x1009, blocks: [3])) == [0x07] + common + [0x00, 0x00, 0x01] + F.filled(0xEE))
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send(F.read([0x21] + common.dropFirst(), service: 0x1009, blocks: [3]))
        }
        let state = await harness.tag(as: FeliCaStandardTag.self)
        #expect(state?.systems[1].services[0].blocks[3] == F.filled(0xEE))
    }
}
