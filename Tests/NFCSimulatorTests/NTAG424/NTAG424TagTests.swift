import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The virtual NTAG 424 DNA answering NXP AN12196's worked examples (rev. 1.8) byte for byte,
/// as the card: the published RndB and TI are the tag's scripted random bytes, the published
/// commands go in, the published answers must come out.
@Suite struct NTAG424TagTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    /// Sends hex, returns hex (upper case).
    static func send(_ tag: inout NTAG424Tag, _ command: String) -> String {
        let answer = tag.respond(to: hexBytes(command), context: ExchangeContext())
        return Hex.encode(answer.transceivedBytes ?? [], uppercase: true)
    }

    static func selected(random: String) -> NTAG424Tag {
        var tag = NTAG424Tag(uid: hexBytes("04968CAA5C5E80"))
        tag.powerOn()
        tag.scriptedRandom = hexBytes(random)
        #expect(send(&tag, "00A4040C07D276000085010100") == "9000", "AN12196 Table 11: ISOSelectFile of the NDEF application")
        return tag
    }

    /// AN12196 §6.6 Table 14 (AuthenticateEV2First with key 0), §6.8.2 Table 18 (WriteData of the
    /// NDEF file in full mode, CmdCtr 0) and §6.9 Table 19 (ChangeFileSettings enabling SDM, CmdCtr 1).
    @Test func authenticationWriteAndSDMSettingsAsTables14To19() throws {
        var tag = Self.selected(random: "B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&tag, "9071000002000000") == "A04C124213C186F22399D33AC2A3021591AF")
        #expect(
            Self.send(&tag, "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00")
                == "3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F08120663" + "9100")
        // Table 18 writes file 02 in full mode although the file is plain: the AN's tag has had its
        // NDEF file set to full mode with write key 0 first; do the same in the clear.
        tag.files[1].mode = .full
        tag.files[1].access = NTAG424File.AccessRights(read: 0x0E, write: 0x00, readWrite: 0x00, change: 0x00)
        let encrypted =
            "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B407C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802AF745660F2B4"
        #expect(Self.send(&tag, "908D00009F" + "02000000800000" + encrypted + "D1D9A8499661EBF3" + "00") == "FC222E5F7A542452" + "9100")
        #expect(Hex.encode(Array(tag.files[1].contents.prefix(0x53)), uppercase: true) == Self.table18NDEF)
        #expect(Self.send(&tag, "905F0000190261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A0400") == "57BFF87B1241E93D" + "9100")
        let sdm = try #require(tag.files[1].sdm)
        #expect(sdm.mirrorsUID && sdm.mirrorsCounter && sdm.metaReadKey == 2 && sdm.fileReadKey == 1 && sdm.counterRetrievalKey == 1)
        #expect(sdm.piccDataOffset == 0x20 && sdm.macInputOffset == 0x43 && sdm.macOffset == 0x43)
        #expect(tag.files[1].mode == .plain && tag.files[1].access.bytes == [0x00, 0xE0])
    }

    /// The NDEF message of AN12196 Tables 15–18: NLEN `0051`, a URI record
    /// `https://choose.url.com/ntag424?e=0…0&c=0…0`.
    static let table18NDEF =
        "0051D1014D550463686F6F73652E75726C2E636F6D2F6E7461673432343F653D" + String(repeating: "30", count: 32) + "26633D"
        + String(repeating: "30", count: 16)

    /// AN12196 §6.10 Table 20 (AuthenticateEV2First with key 3), §6.12 Table 22 (WriteData of the
    /// proprietary file in full mode), §6.14 Table 24 (AuthenticateEV2NonFirst with key 0, TI and
    /// CmdCtr kept), §6.15 Table 25 (a plain WriteData inside the session), §6.16 Tables 26 and 27
    /// (ChangeKey of key 2, then of key 0: a bare `9100` and the session over).
    @Test func keyThreeNonFirstAndChangeKeyAsTables20To27() {
        var tag = Self.selected(random: "91517975190DCEA6104948EFA3085C1B" + "7614281A" + "6924E8D09722659A2E7DEC68E66312B8")
        #expect(Self.send(&tag, "9071000002030000") == "B875CEB0E66A6C5CD00898DC371F92D191AF")
        #expect(
            Self.send(&tag, "90AF000020FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B100")
                == "0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A9100")
        #expect(Self.send(&tag, "908D00001F030000000A00006B5E6804909962FC4E3FF5522CF0F8436C0C53315B9C73AA00") == "C26D236E4A7C046D9100")
        #expect(Array(tag.files[2].contents.prefix(10)) == hexBytes("0102030405060708090A"))
        #expect(Self.send(&tag, "90770000010000") == "A6A2B3C572D06C097BB8DB70463E22DC91AF")
        #expect(
            Self.send(&tag, "90AF000020BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E99100")
                == "B888349C24B315EAB5B589E279C8263E9100")
        #expect(Self.send(&tag, "908D000019010E0000120000FF0506E1050080828300000000000000000000") == "9100")
        #expect(tag.files[0].contents[0x0E] == 0xFF, "Table 25 makes the NDEF file read-only in the CC")
        #expect(
            Self.send(&tag, "90C4000029022CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC75D0CE20BCD1D06E600")
                == "203BB55D1089D5879100")
        #expect(tag.keys[2] == NTAG424Tag.Key(value: hexBytes("F3847D627727ED3BC9C4CC050489B966"), version: 1))
        #expect(
            Self.send(
                &tag, "90C4000029" + "00" + "C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD" + "A6610234BDED6432" + "00")
                == "9100")
        #expect(tag.keys[0] == NTAG424Tag.Key(value: hexBytes("5004BF991F408672B1EF00F08F9E8647"), version: 1))
        #expect(Self.send(&tag, "90640000010000") == "019100", "the session is over: GetKeyVersion answers in the clear")
    }

    /// A wrong RndB' is AUTHENTICATION_ERROR and leaves no session; a tampered MAC is
    /// INTEGRITY_ERROR and ends the session (data sheet §9.1.9).
    @Test func wrongProofAndWrongMACEndTheSession() {
        var tag = Self.selected(random: "B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&tag, "9071000002000000").hasSuffix("91AF"))
        #expect(Self.send(&tag, "90AF000020" + String(repeating: "00", count: 32) + "00") == "91AE")
        tag.scriptedRandom = hexBytes("B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(Self.send(&tag, "9071000002000000").hasSuffix("91AF"))
        #expect(Self.send(&tag, "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00").hasSuffix("9100"))
        // Table 19's command with its last MAC byte flipped.
        #expect(Self.send(&tag, "905F0000190261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A0500") == "911E")
        #expect(Self.send(&tag, "90510000088E2C155ADDA99BE300") == "91AE", "no session any more: GetCardUID is refused")
    }

    /// The factory state (data sheet §8.2.2, Tables 5 and 8): GetVersion's three frames,
    /// GetFileSettings of each file, the CC file by ISOReadBinary.
    @Test func factoryStateAsTheDataSheet() {
        var tag = Self.selected(random: "")
        #expect(Self.send(&tag, "9060000000") == "0404023000110591AF")
        #expect(Self.send(&tag, "90AF000000") == "0404020102110591AF")
        #expect(Self.send(&tag, "90AF000000").hasPrefix("04968CAA5C5E80"))
        #expect(Self.send(&tag, "90F50000010100") == "000000E02000009100")
        #expect(Self.send(&tag, "90F50000010200") == "0000E0EE0001009100")
        #expect(Self.send(&tag, "90F50000010300") == "00033023800000" + "9100")
        #expect(Self.send(&tag, "00A4000C02E103") == "9000")
        #expect(
            Self.send(&tag, "00B0000020") == "001720010000FF0406E104010000000506E10500808283" + String(repeating: "00", count: 9) + "9000")
        #expect(Self.send(&tag, "90AD0000070300000000000000") == "91AE", "file 03 needs key 2")
        #expect(Self.send(&tag, "90AD0000070400000000000000") == "91F0")
        #expect(Self.send(&tag, "9051000000") == "91AE")
        #expect(Self.send(&tag, "00A4000C02E105") == "9000")
        #expect(Self.send(&tag, "00B0000010") == "6982", "ISOReadBinary of the proprietary file needs a key")
    }
}
