import NFCSimulator
import NFCTransport
import Testing

@Suite("FeliCa Lite-S polling")
struct FeliCaLiteSPollingTests {
    let idm = FeliCaLiteSTag.defaultIDm
    let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]

    private func poll(_ tag: inout FeliCaLiteSTag, _ frame: [UInt8]) -> [UInt8]? {
        FeliCaCommandFrames.reply(tag.respond(to: frame, context: ExchangeContext(bitRate: .kbps212)))
    }

    @Test("Polling 88B4 answers 01, IDm, PMm")
    func pollingOwnSystemCode() {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, FeliCaCommandFrames.polling(0x88B4)) == [0x01] + idm + pmm)
    }

    @Test("Request code 01 adds the system code, 02 the communication performance, others nothing")
    func requestCodes() {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, FeliCaCommandFrames.polling(0xFFFF, requestCode: 0x01)) == [0x01] + idm + pmm + [0x88, 0xB4])
        #expect(poll(&tag, FeliCaCommandFrames.polling(0xFFFF, requestCode: 0x02)) == [0x01] + idm + pmm + [0x00, 0x01])
        #expect(poll(&tag, FeliCaCommandFrames.polling(0xFFFF, requestCode: 0x03)) == [0x01] + idm + pmm)
    }

    @Test("FF bytes are wildcards", arguments: [UInt16(0xFFFF), 0x88FF, 0xFFB4])
    func wildcards(code: UInt16) {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, FeliCaCommandFrames.polling(code, requestCode: 0x01))?.suffix(2) == [0x88, 0xB4])
    }

    @Test("A foreign system code gets no answer", arguments: [UInt16(0x0003), 0xFE00, 0x88B5, 0x12FC, 0x12FF])
    func wrongSystemCode(code: UInt16) {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, FeliCaCommandFrames.polling(code)) == nil)
    }

    @Test("Formatted for NDEF, the card also answers 12FC and reports it")
    func ndefSystemCode() {
        var tag = FeliCaLiteSTag(formatting: .ndef)
        #expect(poll(&tag, FeliCaCommandFrames.polling(0x12FC, requestCode: 0x01)) == [0x01] + idm + pmm + [0x12, 0xFC])
        #expect(poll(&tag, FeliCaCommandFrames.polling(0x12FF, requestCode: 0x01))?.suffix(2) == [0x12, 0xFC])
        #expect(poll(&tag, FeliCaCommandFrames.polling(0xFFFF, requestCode: 0x01))?.suffix(2) == [0x88, 0xB4])
    }

    @Test("A Polling frame of the wrong length gets no answer")
    func malformedPolling() {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, [0x00, 0xFF, 0xFF, 0x00]) == nil)
        #expect(poll(&tag, [0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00]) == nil)
        #expect(poll(&tag, []) == nil)
    }

    @Test("Commands the Lite-S lacks get no answer", arguments: [UInt8(0x02), 0x04, 0x0A, 0x0C, 0x10, 0x32, 0x3C, 0x3E, 0xFF])
    func unsupportedCommands(code: UInt8) {
        var tag = FeliCaLiteSTag()
        #expect(poll(&tag, [code] + idm + [0x01, 0x00, 0x00]) == nil)
        #expect(poll(&tag, [code] + idm) == nil)
    }

    @Test("The answer comes in a time slot the reader offered")
    func timeSlots() {
        var tag = FeliCaLiteSTag()
        let slot0 = FeliCaTiming.pollingResponseDelay(slot: 0)
        let slotWidth = FeliCaTiming.pollingResponseDelay(slot: 1) - slot0
        #expect(abs((slot0 - .nanoseconds(2_416_519)) / .nanoseconds(1)) < 2)
        #expect(abs((slotWidth - .nanoseconds(1_208_260)) / .nanoseconds(1)) < 2)
        var seen: Set<Int> = []
        for _ in 0..<64 {
            let answer = tag.respond(to: FeliCaCommandFrames.polling(0xFFFF, timeSlots: 0x0F), context: ExchangeContext())
            let slot = Int(((answer.processingTime - slot0) / slotWidth).rounded())
            #expect((0...15).contains(slot))
            #expect(answer.processingTime == FeliCaTiming.pollingResponseDelay(slot: slot))
            seen.insert(slot)
        }
        #expect(seen.count > 4)
        let single = tag.respond(to: FeliCaCommandFrames.polling(0xFFFF, timeSlots: 0x00), context: ExchangeContext())
        #expect(single.processingTime == slot0)
    }

    @Test("Through the field: activation parameters and a Polling exchange")
    func throughField() async throws {
        let harness = try await FieldHarness(FeliCaLiteSTag(formatting: .ndef))
        #expect(harness.connection.target.identifier == idm)
        #expect(harness.connection.target.parameters == .felica(.init(pmm: pmm, systemCode: 0x88B4, maximumBitRate: .kbps212)))
        #expect(harness.connection.bitRate == .kbps212)
        let answer = try await harness.send(FeliCaCommandFrames.polling(0x12FC, requestCode: 0x01))
        #expect(answer == [0x01] + idm + pmm + [0x12, 0xFC])
        await #expect(throws: TransportError(.timeout)) {
            try await harness.send(FeliCaCommandFrames.polling(0xFE00))
        }
    }

    @Test("Activation costs one Polling exchange")
    func activationFrames() {
        var tag = FeliCaLiteSTag()
        let frames = tag.activate(context: ExchangeContext(bitRate: .kbps212))
        #expect(frames == [AirFrame(reader: .bytes(5), tag: .bytes(19), processing: FeliCaTiming.pollingResponseDelay(slot: 0))])
    }
}
