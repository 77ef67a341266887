import NFCBytes
import NFCTestSupport
import NFCTransport
import Testing

@testable import NFCSimulator

/// The virtual NTAG 424 DNA in LRP mode answering published exchanges as the card: NXP AN12343
/// §7.2.5 Tables 18 and 19 (the switch to LRP, then AuthenticateLRPFirst; AN12321 Tables 3 and 2
/// carry the same numbers) and the same switch logged from a real card
/// (MichaelsPlayground/TalkToYourNTAG424DNACard, "change auth mode to LRP").
@Suite struct NTAG424LRPTagTests {
    static func send(_ tag: inout NTAG424Tag, _ command: String) -> String {
        Hex.encode(tag.respond(to: hexBytes(command), context: ExchangeContext()).transceivedBytes ?? [], uppercase: true)
    }

    static func selected(lrp: Bool, random: String = "") -> NTAG424Tag {
        var tag = NTAG424Tag()
        tag.lrpMode = lrp
        tag.powerOn()
        tag.scriptedRandom = hexBytes(random)
        #expect(send(&tag, "00A4040C07D276000085010100") == "9000")
        return tag
    }

    @Test("AN12343 Table 19: AuthenticateLRPFirst with key 0 as the card answers it")
    func an12343Authentication() throws {
        var tag = Self.selected(lrp: true, random: "56109A31977C855319CD4618C9D2AED2" + "58EE9424")
        #expect(Self.send(&tag, "9071000008000602000000000000") == "0156109A31977C855319CD4618C9D2AED291AF")
        #expect(
            Self.send(&tag, "90AF000020" + "74D7DF6A2CEC0B72B412DE0D2B1117E6" + "189B59DCEDC31A3D3F38EF8D4810B3B4" + "00")
                == "F4FC209D9D60623588B299FA5D6B2D710125F8547D9FB8D572C90D2C2A14E235" + "9100")
        let session = try #require(tag.session)
        #expect(session.ti == hexBytes("58EE9424") && session.counter == 0 && session.encryptionCounter == 1)
    }

    @Test(
        "a wrong PCDResp is AUTHENTICATION_ERROR; AES authentication on an LRP tag is PERMISSION_DENIED; an AES tag asked for LRP answers the AES way"
    )
    func refusals() {
        var tag = Self.selected(lrp: true, random: "56109A31977C855319CD4618C9D2AED2")
        #expect(Self.send(&tag, "9071000008000602000000000000").hasSuffix("91AF"))
        #expect(Self.send(&tag, "90AF000020" + "74D7DF6A2CEC0B72B412DE0D2B1117E6" + "189B59DCEDC31A3D3F38EF8D4810B3B5" + "00") == "91AE")
        #expect(tag.session == nil)
        #expect(Self.send(&tag, "9071000002000000") == "919D", "AuthenticateEV2First without PCDcap2.1 bit 1")
        #expect(Self.send(&tag, "9071000003000100") == "919D")
        #expect(Self.send(&tag, "90770000010000") == "919D", "NonFirst without a session")
        var aes = Self.selected(lrp: false)
        let answer = Self.send(&aes, "9071000008000602000000000000")
        #expect(answer.count == 36 && answer.hasSuffix("91AF"), "16 bytes of E(Kx, RndB): \(answer)")
    }

    @Test("AN12343 Table 18 and a real card's log: SetConfiguration option 05 switches to LRP, answered 9100 without a MAC")
    func switchToLRP() throws {
        for (encryption, mac, ti, command) in [
            (
                "66A8CB93269DC9BC2885B7A91B9C697B", "7DE5F7E244A46D22E536804D07E8D70E", "ED56F6E6",
                "905C0000190541B2BA963075730426D0858D2AA6C4982F579E77FAB49F8300"
            ),
            (
                "6043911B14D98EABFD7280F51ABB4B45", "1F52DE5E1281E97B88BF2A9B00ECB50F", "FD9E8701",
                "905C00001905F79BB2B381791159D1AA652D958FC12A3CD841A7F008562B00"
            ),
        ] {
            var tag = Self.selected(lrp: false)
            tag.files[1].sdm = NTAG424SDM(mirrorsUID: true, mirrorsCounter: false, metaReadKey: 0x0E, fileReadKey: 0x0F, uidOffset: 0x20)
            tag.session = NTAG424Tag.Session(
                keyNumber: 0, encryption: hexBytes(encryption), mac: hexBytes(mac), ti: hexBytes(ti), counter: 0)
            #expect(Self.send(&tag, command) == "9100")
            #expect(tag.lrpMode && tag.session == nil)
            #expect(tag.files.allSatisfy { $0.sdm == nil }, "the switch turns SDM off (§9.3.4.2)")
            #expect(Self.send(&tag, "9071000002000000") == "919D")
            let image = tag.image
            #expect(image.lrp == true)
            #expect(try NTAG424Tag(image: image).lrpMode, "the image keeps the mode")
        }
        var tag = Self.selected(lrp: false)
        tag.session = NTAG424Tag.Session(
            keyNumber: 1, encryption: [UInt8](repeating: 0, count: 16), mac: [UInt8](repeating: 0, count: 16), ti: [0, 0, 0, 0], counter: 0)
        #expect(Self.send(&tag, "905C0000190541B2BA963075730426D0858D2AA6C4982F579E77FAB49F8300") == "91AE", "key 0 only")
        #expect(!tag.lrpMode)
        #expect(tag.image.lrp == nil)
    }

    @Test("Read_Sig answers 91 90, plain and in an AES session (its MAC over RC 90), as the chips and AN12196 do")
    func readSignatureStatus() throws {
        var tag = Self.selected(lrp: false)
        let answer = Self.send(&tag, "903C0000010000")
        #expect(answer.count == 116 && answer.hasSuffix("9190"))
        #expect(Self.send(&tag, "903C0000010100") == "919E")
        let encryption = hexBytes("1309C877509E5A215007FF0ED19CA564")
        let mac = hexBytes("4C6626F5E72EA694202139295C7A7FC7")
        let ti = hexBytes("9D00C4DF")
        tag.session = NTAG424Tag.Session(keyNumber: 0, encryption: encryption, mac: mac, ti: ti, counter: 0)
        let commandMAC = try #require(NTAG424Cipher.truncatedMAC([0x3C, 0x00, 0x00] + ti + [0x00], key: mac))
        let sealed = hexBytes(Self.send(&tag, "903C000009" + "00" + Hex.encode(commandMAC, uppercase: true) + "00"))
        try #require(sealed.count == 64 + 8 + 2, "\(sealed.count) bytes")
        #expect(sealed.suffix(2) == [0x91, 0x90])
        let body = Array(sealed[0..<64])
        #expect(Array(sealed[64..<72]) == NTAG424Cipher.truncatedMAC([0x90, 0x01, 0x00] + ti + body, key: mac), "RC 90 in the MAC")
        #expect(tag.session?.counter == 1, "91 90 keeps the session")
    }
}
