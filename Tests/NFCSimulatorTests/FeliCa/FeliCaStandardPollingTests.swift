import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Standard polling and systems")
struct FeliCaStandardPollingTests {
    typealias F = FeliCaCommandFrames
    let tag = FeliCaStandardTag()
    let pmm: [UInt8] = [0x01, 0x20, 0x22, 0x04, 0x27, 0x67, 0x4E, 0xFF]

    private func poll(_ frame: [UInt8]) -> [UInt8]? {
        var card = tag
        return F.reply(card.respond(to: frame, context: ExchangeContext(bitRate: .kbps212)))
    }

    @Test("Each system has its own IDm: the system number in the upper nibble of byte 0")
    func systemIDm() {
        #expect(tag.idm(ofSystem: 0) == FeliCaStandardTag.defaultIDm)
        #expect(tag.idm(ofSystem: 1) == [0x11, 0x16, 0x0A, 0x12, 0x34, 0x56, 0x78, 0x9A])
    }

    @Test("FFFF selects the first system; FE00 the common area, with its own IDm")
    func selection() {
        #expect(poll(F.polling(0xFFFF, requestCode: 0x01)) == [0x01] + tag.idm(ofSystem: 0) + pmm + [0x00, 0x03])
        #expect(poll(F.polling(0xFE00, requestCode: 0x01)) == [0x01] + tag.idm(ofSystem: 1) + pmm + [0xFE, 0x00])
        #expect(poll(F.polling(0x0003)) == [0x01] + tag.idm(ofSystem: 0) + pmm)
    }

    @Test(
        "Wildcard bytes pick the first system that matches",
        arguments: [
            (UInt16(0xFEFF), UInt16(0xFE00)), (0xFF00, 0xFE00), (0xFF03, 0x0003), (0x00FF, 0x0003),
        ])
    func wildcards(polled: UInt16, answered: UInt16) {
        #expect(poll(F.polling(polled, requestCode: 0x01))?.suffix(2) == [UInt8(answered >> 8), UInt8(answered & 0xFF)])
    }

    @Test("No system with the code: no answer", arguments: [UInt16(0x12FC), 0x88B4, 0xFE01, 0x12FF])
    func absentSystem(code: UInt16) {
        #expect(poll(F.polling(code)) == nil)
    }

    @Test("Request code 02 returns the communication performance 00 83 (212, 424, automatic detection)")
    func communicationPerformance() {
        #expect(poll(F.polling(0xFFFF, requestCode: 0x02))?.suffix(2) == [0x00, 0x83])
        #expect(poll(F.polling(0xFFFF, requestCode: 0x00))?.count == 17)
    }

    @Test("The reader learns PMm, the first system code and 424 kbit/s")
    func activation() async throws {
        #expect(tag.parameters == .felica(.init(pmm: pmm, systemCode: 0x0003, maximumBitRate: .kbps424)))
        let harness = try await FieldHarness(tag)
        #expect(harness.connection.bitRate == .kbps424)
        let base = try await FieldHarness(tag, configuration: .baseRate)
        #expect(base.connection.bitRate == .kbps212)
    }

    @Test("Commands carrying the IDm of a system the card lacks get no answer")
    func unknownSystemIDm() {
        var card = tag
        let idm = tag.idm(ofSystem: 2)
        #expect(F.reply(card.respond(to: [0x04] + idm, context: ExchangeContext())) == nil)
        #expect(F.reply(card.respond(to: F.read(idm, service: 0x008B, blocks: [0]), context: ExchangeContext())) == nil)
        #expect(
            F.reply(card.respond(to: [0x04] + tag.idm(ofSystem: 1), context: ExchangeContext())) == [0x05] + tag.idm(ofSystem: 1) + [0x00])
    }

    @Test("A custom layout with an NDEF system answers 12FC with that system's IDm")
    func ndefSystem() throws {
        let ndef = FeliCaStandardTag.System(
            code: 0x12FC,
            services: [
                FeliCaStandardTag.Service(
                    codes: [0x0009, 0x000B],
                    blocks: [FeliCaType3Attributes(blocksPerRead: 12, blocksPerWrite: 10, maximumBlocks: 3).block]
                        + (0..<3).map { _ in F.filled(0) })
            ])
        var card = try FeliCaStandardTag(systems: FeliCaStandardTag.defaultSystems + [ndef])
        let reply = F.reply(card.respond(to: F.polling(0x12FC, requestCode: 0x01), context: ExchangeContext()))
        #expect(reply == [0x01] + card.idm(ofSystem: 2) + pmm + [0x12, 0xFC])
        let read = F.reply(card.respond(to: F.read(card.idm(ofSystem: 2), service: 0x000B, blocks: [0]), context: ExchangeContext()))
        #expect(read?.suffix(16).first == 0x10)
        #expect(read?.count == 28)
    }
}
