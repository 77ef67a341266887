import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The virtual DESFire EV2 answering NXP AN12196's worked examples (rev. 1.8) byte for byte. AN12196
/// is written for NTAG 424 DNA, whose AuthenticateEV2First/NonFirst, EV2 secure messaging and
/// ChangeKey are DESFire EV2's (AN12343 §5–§6 describes the same for DESFire Light; NXP publishes
/// no DESFire EV2 example outside the NDA data sheet). An application laid out as NTAG 424 DNA's
/// (five AES keys; files 1–3 of 32, 256 and 128 bytes) receives the published commands with the
/// published RndB and TI as the card's random bytes, and must give the published answers.
@Suite struct DESFireCardSecureMessagingTests {
    /// Sends hex, returns hex (upper case).
    static func send(_ card: inout DESFireCard, _ command: String) -> String {
        let answer = card.respond(to: hexBytes(command), context: ExchangeContext())
        return Hex.encode(answer.transceivedBytes ?? [], uppercase: true)
    }

    /// An EV2 with application `112233` shaped as AN12196's tag, selected.
    static func selected(random: String) -> DESFireCard {
        var card = DESFireCard(model: .ev2, uid: hexBytes("04968CAA5C5E80"))
        var app = DESFireApplication(aid: [0x33, 0x22, 0x11], keySettings: 0x0F, keyCount: 5)
        app.files = [
            DESFireDataFile(
                number: 1, kind: .standard, mode: .plain, access: .init(read: 0x0E, write: 0x00, readWrite: 0x00, change: 0x00),
                contents: [UInt8](repeating: 0, count: 32)),
            DESFireDataFile(
                number: 2, kind: .standard, mode: .full, access: .init(read: 0x0E, write: 0x00, readWrite: 0x00, change: 0x00),
                contents: [UInt8](repeating: 0, count: 256)),
            DESFireDataFile(
                number: 3, kind: .standard, mode: .full, access: .init(read: 0x02, write: 0x03, readWrite: 0x03, change: 0x00),
                contents: [UInt8](repeating: 0, count: 128)),
        ]
        card.applications = [app]
        card.powerOn()
        #expect(send(&card, "905A00000333221100") == "9100")
        card.scriptedRandom = hexBytes(random)
        return card
    }

    /// AN12196 §6.6 Table 14 (AuthenticateEV2First with key 0) and §6.8.2 Table 18 (WriteData in
    /// full mode at CmdCtr 0).
    @Test func authenticationAndFullModeWriteAsTables14And18() throws {
        var card = Self.selected(random: "B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&card, "9071000002000000") == "A04C124213C186F22399D33AC2A3021591AF")
        #expect(
            Self.send(&card, "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00")
                == "3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663" + "9100")
        let encrypted =
            "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B407C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802AF745660F2B4"
        #expect(Self.send(&card, "908D00009F" + "02000000800000" + encrypted + "D1D9A8499661EBF3" + "00") == "FC222E5F7A542452" + "9100")
        let file = try #require(card.applications.first?.files[1])
        let expected =
            "0051D1014D550463686F6F73652E75726C2E636F6D2F6E7461673432343F653D" + String(repeating: "30", count: 32) + "26633D"
            + String(repeating: "30", count: 16)
        #expect(Hex.encode(Array(file.contents.prefix(0x53)), uppercase: true) == expected)
    }

    /// AN12196 §6.10 Table 20 (AuthenticateEV2First with key 3), §6.12 Table 22 (WriteData of file
    /// 3), §6.14 Table 24 (AuthenticateEV2NonFirst with key 0), §6.15 Table 25 (a plain WriteData in
    /// the session), §6.16 Tables 26 and 27 (ChangeKey of key 2, then key 0: a bare `9100`, the
    /// session over).
    @Test func keyThreeNonFirstAndChangeKeyAsTables20To27() throws {
        var card = Self.selected(random: "91517975190DCEA6104948EFA3085C1B" + "7614281A" + "6924E8D09722659A2E7DEC68E66312B8")
        #expect(Self.send(&card, "9071000002030000") == "B875CEB0E66A6C5CD00898DC371F92D191AF")
        #expect(
            Self.send(&card, "90AF000020FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B100")
                == "0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A9100")
        #expect(Self.send(&card, "908D00001F030000000A00006B5E6804909962FC4E3FF5522CF0F8436C0C53315B9C73AA00") == "C26D236E4A7C046D9100")
        let app = try #require(card.applications.first)
        #expect(Array(app.files[2].contents.prefix(10)) == hexBytes("0102030405060708090A"))
        #expect(Self.send(&card, "90770000010000") == "A6A2B3C572D06C097BB8DB70463E22DC91AF")
        #expect(
            Self.send(&card, "90AF000020BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E99100")
                == "B888349C24B315EAB5B589E279C8263E9100")
        #expect(Self.send(&card, "908D000019010E0000120000FF0506E1050080828300000000000000000000") == "9100")
        #expect(
            Self.send(&card, "90C4000029022CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC75D0CE20BCD1D06E600")
                == "203BB55D1089D5879100")
        #expect(card.applications.first?.keys[2] == DESFireCard.Key(value: hexBytes("F3847D627727ED3BC9C4CC050489B966"), version: 1))
        #expect(
            Self.send(
                &card, "90C4000029" + "00" + "C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD" + "A6610234BDED6432" + "00")
                == "9100")
        #expect(card.applications.first?.keys[0] == DESFireCard.Key(value: hexBytes("5004BF991F408672B1EF00F08F9E8647"), version: 1))
        #expect(Self.send(&card, "90640000010000") == "019100", "the session is over: GetKeyVersion answers in the clear")
    }

    /// A wrong RndB' is AUTHENTICATION_ERROR; a tampered MAC is INTEGRITY_ERROR and ends the session.
    @Test func wrongProofAndWrongMACEndTheSession() {
        var card = Self.selected(random: "B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&card, "9071000002000000").hasSuffix("91AF"))
        #expect(Self.send(&card, "90AF000020" + String(repeating: "00", count: 32) + "00") == "91AE")
        card.scriptedRandom = hexBytes("B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&card, "9071000002000000").hasSuffix("91AF"))
        #expect(
            Self.send(&card, "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00").hasSuffix("9100"))
        // Table 18's WriteData with its last MAC byte flipped.
        let encrypted =
            "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B407C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802AF745660F2B4"
        #expect(Self.send(&card, "908D00009F" + "02000000800000" + encrypted + "D1D9A8499661EBF2" + "00") == "911E")
        #expect(card.applications.first?.files[1].contents.allSatisfy { $0 == 0 } == true, "a refused write stores nothing")
        #expect(Self.send(&card, "9051000000") == "91AE", "no session any more: GetCardUID is refused")
    }

    /// EV1 has no AuthenticateEV2First (ILLEGAL_COMMAND); the legacy authentication meets the
    /// factory DES PICC master key, AuthenticateAES does not.
    @Test func ev1RefusesEV2Authentication() {
        var card = DESFireCard(model: .ev1)
        card.powerOn()
        #expect(Self.send(&card, "9071000002000000") == "911C")
        #expect(Self.send(&card, "90AA0000010000") == "91AE")
        #expect(Self.send(&card, "900A0000010000").hasSuffix("91AF"))
    }
}
