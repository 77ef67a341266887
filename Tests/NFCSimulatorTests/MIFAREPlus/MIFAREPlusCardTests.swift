import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The virtual MIFARE Plus: identification per level, GetVersion, personalization, and SL3
/// authentication and secure messaging checked against bytes computed apart from the Swift code
/// (docs/mifare-plus.md: NXP publishes no worked example; the values come from an independent
/// Python computation of the NXP Reader Library's formulas, Integration/mifare-plus).
@Suite struct MIFAREPlusCardTests {
    static func send(_ card: inout MIFAREPlusCard, _ command: String) -> String {
        let answer = card.respond(to: hexBytes(command), context: ExchangeContext())
        return Hex.encode(answer.transceivedBytes ?? [], uppercase: true)
    }

    /// SL0 and SL3 answer as ISO-DEP cards with SAK 20; SL1 is MIFARE Classic's SAK 08 and silent.
    @Test func identificationPerLevel() {
        let sl0 = MIFAREPlusCard()
        guard case .iso14443A(let a0) = sl0.parameters else {
            Issue.record("not Type A")
            return
        }
        #expect(a0.sak == 0x20 && a0.atqa == 0x0044 && a0.ats?.historicalBytes == hexBytes("C1052F2F01BCD6"))
        var sl1 = MIFAREPlusCard(model: MIFAREPlusModel(generation: .ev1, kilobytes: 4), securityLevel: .sl1)
        guard case .iso14443A(let a1) = sl1.parameters else {
            Issue.record("not Type A")
            return
        }
        #expect(a1.sak == 0x18 && a1.atqa == 0x0042 && a1.ats == nil)
        #expect(sl1.respond(to: [0x60], context: ExchangeContext()).reply == .mute, "Crypto1 is not modelled")
    }

    /// GetVersion: hardware and software parts behind AF, then UID and production data; the
    /// major version tells EV1 (11) from EV2 (22), the storage byte 2 KB (16) from 4 KB (18).
    @Test func version() {
        var card = MIFAREPlusCard(model: MIFAREPlusModel(generation: .ev1, kilobytes: 4))
        #expect(Self.send(&card, "60") == "AF04020111001805")
        #expect(Self.send(&card, "AF") == "AF04020111001805")
        #expect(Self.send(&card, "AF").hasPrefix("90044D504C555380"))
        #expect(Self.send(&card, "9060000000") == "0402011100180591AF", "wrapped")
        #expect(Self.send(&card, "AF") == "AF04020111001805")
    }

    /// WritePerso and CommitPerso: block 0 and unknown addresses refused, the commit refused until
    /// the three card keys are written, then SL3 (and WritePerso no longer taken).
    @Test func personalization() {
        var card = MIFAREPlusCard()
        let block = String(repeating: "11", count: 16)
        #expect(Self.send(&card, "A80000" + block) == "09", "the manufacturer block")
        #expect(Self.send(&card, "A89090" + block) == "09", "no such address")
        #expect(Self.send(&card, "A80100" + block + block) == "90", "blocks 1 and 2")
        #expect(card.blocks[2] == [UInt8](repeating: 0x11, count: 16))
        #expect(Self.send(&card, "AA03") == "0B", "card keys not yet written")
        for address in ["0090", "0190", "0390"] { #expect(Self.send(&card, "A8" + address + block) == "90") }
        #expect(Self.send(&card, "AA03") == "90")
        #expect(card.securityLevel == .sl3)
        #expect(Self.send(&card, "A80100" + block) == "0B", "WritePerso at SL3")
        #expect(Self.send(&card, "A89090" + block) == "0B", "the level probe: 0B at SL3")
    }

    /// AuthenticateFirst with key 4000 (EV0 secure messaging), a MACed enciphered read of block 1
    /// and a MACed enciphered write of block 2, byte for byte as computed independently.
    @Test func ev0SessionReadAndWrite() {
        var card = MIFAREPlusCard(securityLevel: .sl3)
        card.keys[0x4000] = hexBytes("000102030405060708090A0B0C0D0E0F")
        card.blocks[1] = hexBytes("00112233445566778899AABBCCDDEEFF")
        card.scriptedRandom = hexBytes("B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF" + "11223344")
        #expect(Self.send(&card, "70004000") == "90E315209ED0E7C94F74A65C99F6EADC1E")
        #expect(
            Self.send(&card, "725E18D1FEF61D087EC0A33ED734A7918F8C0B35F96F9640AB67D536C876626E70")
                == "90FFB41E7FF59353864252165A70A9DAEC02E232C8DE77FFCB1FA5B78A1BA4A66E")
        #expect(Self.send(&card, "310100014E1E5721244A7877") == "9058A183CC9E65486ADC0C26AF787CC122945634FAF481378E")
        #expect(Self.send(&card, "A10200C736ABCEC3F0BF9E880FAAD9604413F9A6CD90B6E24C5D4D") == "909C30B497CA3A24D2")
        #expect(card.blocks[2] == hexBytes("0102030405060708090A0B0C0D0E0F10"))
    }

    /// A wrong MAC is 08 and ends the session; a read outside the session key's sector is 06.
    @Test func refusalsEndTheSession() {
        var card = MIFAREPlusCard(securityLevel: .sl3)
        card.keys[0x4000] = hexBytes("000102030405060708090A0B0C0D0E0F")
        card.scriptedRandom = hexBytes("B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF" + "11223344")
        _ = Self.send(&card, "70004000")
        _ = Self.send(&card, "725E18D1FEF61D087EC0A33ED734A7918F8C0B35F96F9640AB67D536C876626E70")
        #expect(Self.send(&card, "310100014E1E5721244A7878") == "08")
        #expect(Self.send(&card, "310100014E1E5721244A7877") == "06", "no session any more")
        #expect(Self.send(&card, "35040001") == "06", "no session")
        #expect(Self.send(&card, "72" + String(repeating: "00", count: 32)) == "0B", "nothing to continue")
        #expect(Self.send(&card, "70004100") == "09", "key 4100 does not exist on a 2 KB card")
    }
}
