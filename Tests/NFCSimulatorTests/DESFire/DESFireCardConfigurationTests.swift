import NFCBytes
import NFCSimulator
import NFCTestSupport
import Testing

/// The virtual DESFire's SetConfiguration (`5C`) refusals, frame by frame (the accepted command
/// is checked through the client's secure messaging in NFCDESFireTests' DESFireConfigurationTests).
@Suite struct DESFireCardConfigurationTests {
    @Test("without the PICC master key 91 AE (options 00-02); an EV2 option 91 1C; nothing changes")
    func refusals() {
        var card = DESFireCard(model: .ev1)
        card.powerOn()
        #expect(DESFireCardSecureMessagingTests.send(&card, "905C0000020002") == "91AE")
        #expect(DESFireCardSecureMessagingTests.send(&card, "905C000002010000") == "91AE")
        #expect(DESFireCardSecureMessagingTests.send(&card, "905C000002020000") == "91AE")
        #expect(DESFireCardSecureMessagingTests.send(&card, "905C000002030000") == "911C")
        #expect(DESFireCardSecureMessagingTests.send(&card, "5C") == "7E", "native framing, no option")
        #expect(card.piccConfiguration == 0 && !card.randomIDEnabled && card.defaultKey == nil && card.userATS == nil)
        #expect(card.identifier == card.uid)
    }

    @Test("the random ID: 08 and three random bytes, drawn at power-on, kept by a reactivation")
    func randomIDAtPowerOn() {
        var card = DESFireCard(model: .ev2)
        card.piccConfiguration = 0x02
        card.powerOn()
        let first = card.identifier
        #expect(first.count == 4 && first[0] == 0x08)
        _ = card.activate(context: ExchangeContext())
        #expect(card.identifier == first, "an activation within the same stay keeps it")
        guard case .iso14443A(let a) = card.parameters else {
            Issue.record("not ISO 14443 A")
            return
        }
        #expect(a.atqa == 0x0304)
    }
}
