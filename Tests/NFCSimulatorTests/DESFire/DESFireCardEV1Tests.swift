import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// Sends hex to the card, returns its answer as upper-case hex.
private func send(_ card: inout DESFireCard, _ command: String) -> String {
    DESFireCardSecureMessagingTests.send(&card, command)
}

/// The virtual DESFire's legacy, ISO and AES authentications and EV1 secure messaging, replaying
/// exchanges recorded from real MIFARE DESFire EV1 cards byte for byte. The recordings are the
/// ones Elmü published with his DESFire EV1 library and that the test suites of the Python ports
/// skelsec/pydesfire and patsys/desfire-python keep (docs/desfire.md, "Sources").
@Suite struct DESFireCardEV1Tests {
    /// An EV1 with one application of `keyCount` keys of `type`, selected.
    static func selected(aid: [UInt8], type: DESFireKeyType, keys: [[UInt8]], random: String) -> DESFireCard {
        var card = DESFireCard(model: .ev1)
        var app = DESFireApplication(aid: aid, keySettings: 0x0F, keyCount: keys.count, keyType: type)
        for (number, key) in keys.enumerated() { app.keys[number] = DESFireApplication.Key(value: key) }
        card.applications = [app]
        card.powerOn()
        card.scriptedRandom = hexBytes(random)
        #expect(send(&card, "5A" + Hex.encode(aid, uppercase: true)) == "00")
        return card
    }

    /// AuthenticateAES (`AA`) with key 0 all zero: E(RndB), the reader's token, E(RndA').
    @Test func authenticateAESWithKeyZero() {
        var card = Self.selected(
            aid: [0x16, 0xAE, 0x00], type: .aes, keys: [[UInt8](repeating: 0, count: 16)], random: "C05DDD714FD788A6B7B754F3C4D066E8")
        #expect(send(&card, "AA00") == "AFB969FDFE56FD91FC9DE6F6F213B8FD1E")
        #expect(
            send(&card, "AF36AAD7DF6E436BA08D18613830A70D5AD43E3D3F4A8D47541EEE623A934E4774") == "00800DB680BC146BD121D6578F2D2E2059")
    }

    /// AuthenticateAES with key 1, then a plain data file's life under the EV1 CMAC chain: every
    /// answer's CMAC as the real card sent it (the IV runs through commands that send none).
    @Test func aesSessionCMACChainOverAPlainFile() {
        let key1: [UInt8] = hexBytes("10182028303840485058606870788088")
        var card = Self.selected(
            aid: [0x16, 0xAE, 0x00], type: .aes, keys: [[UInt8](repeating: 0, count: 16), key1],
            random: "626FFBD45CAF334ACCA45599304F5B17")
        #expect(send(&card, "AA01") == "AFB351CB2465D4F33AC627FD6E87A168F2")
        #expect(
            send(&card, "AF044B6CAC343A0865895149649CA8DDE1F5AC4EC67BD208900AF02F049E05F0B0") == "00A2EE144B1012FBEB7B2F11132D95A454")
        #expect(send(&card, "CD05001100500000") == "00A75316AD1596B953")
        #expect(send(&card, "6F") == "00052D5FF67FFEC9D2D3")
        #expect(send(&card, "F505") == "00000011005000002AAC7517024E09DC")
        let first = (0x00...0x33).map { UInt8($0) }
        let second = (0x34...0x4F).map { UInt8($0) }
        #expect(send(&card, "3D05000000340000" + Hex.encode(first, uppercase: true)) == "00765C9DAA50ECB62F")
        #expect(send(&card, "3D053400001C0000" + Hex.encode(second, uppercase: true)) == "003E0AED986B8B0F37")
        #expect(send(&card, "BD05000000300000") == "00" + Hex.encode(Array(first.prefix(0x30)), uppercase: true) + "4C65F1F842262BAC")
        #expect(
            send(&card, "BD05300000200000") == "00" + Hex.encode(Array((first + second)[0x30...]), uppercase: true) + "F02205CF913C03C9")
        #expect(send(&card, "DF05") == "001BEF0D32B6D1D7F9")
        #expect(send(&card, "BD05000000010000") == "F0", "the file is gone")
    }

    /// AuthenticateISO (`1A`) with 3K3DES, 2K3DES and DES keys: 16- and 8-byte randoms, CBC chained
    /// across the three messages.
    @Test func authenticateISOWithEachTDEAKey() {
        var tdes3 = Self.selected(
            aid: [0x24, 0xDE, 0x00], type: .tdes3, keys: [[UInt8](repeating: 0, count: 24)], random: "316E6D76A449F925BA304FB2653656A2")
        #expect(send(&tdes3, "1A00") == "AFBC1C570BC948156187132364E4DCE176")
        #expect(
            send(&tdes3, "AFDDDC9A77597F03A40C7FAA362F45A8EADBE46A115D98198CBF36A6E51B39D87C") == "007244D935ED9A1306CD8C841A7C1DE39A")
        var tdes2 = Self.selected(
            aid: [0x16, 0xDE, 0x00], type: .des, keys: [hexBytes("00102031405060708090A0B0B0A09080")], random: "BCD8299747332DAF")
        #expect(send(&tdes2, "1A00") == "AFB295579926155AE3")
        #expect(send(&tdes2, "AF70F349740C945DAE159BA9FEDBCC461A") == "00B8FD7FE56B241FC4")
        var des = DESFireCard(model: .ev1)
        des.powerOn()
        des.scriptedRandom = hexBytes("4FD1B75942A8B8E1")
        #expect(send(&des, "1A00") == "AF5D994CE085F24089", "a fresh card's PICC master key: DES, all zero")
        #expect(send(&des, "AF21D0AD5F2FD97454A746CC80567F1B1C") == "00913C6DED84221C41")
    }

    /// A DES session (RndB deciphered from the recorded E(RndB) under the zero key): GetKeySettings
    /// with its CMAC, then ChangeKeySettings enciphered from the running IV (no command CMAC), its
    /// answer's CMAC chained from the cryptogram's last block, and the new settings read back.
    @Test func desSessionChangesKeySettings() {
        let zero = [UInt8](repeating: 0, count: 16)
        var card = Self.selected(aid: [0x16, 0xDE, 0x00], type: .des, keys: [zero, zero], random: "3B3DFE628164BFDA")
        #expect(send(&card, "1A00") == "AF8476D1CF3024B7C7")
        #expect(send(&card, "AFDAC67AB743763DC9FAF8A0AE504E80C5") == "0013E9E4FA4388BF16")
        #expect(send(&card, "45") == "000F0225DD8D7731B1CFD5")
        #expect(send(&card, "5427882805FC3FD49D") == "00A628378374270ACD")
        #expect(send(&card, "45") == "000D02613FB2D3F453D2E4")
        #expect(card.applications[0].keySettings == 0x0D)
    }

    /// ChangeKey in DES sessions: the session's own key to a 2K3DES key (no CMAC; the session
    /// ends; the version sits in the parity bits), then, authenticated again, another key (new ⊕
    /// old, CRC32 of the new key, answered with a CMAC).
    @Test func desSessionChangesKeys() {
        let zero = [UInt8](repeating: 0, count: 16)
        var card = Self.selected(aid: [0x16, 0xDE, 0x00], type: .des, keys: [zero, zero], random: "4C647E5672E2A651")
        #expect(send(&card, "1A00") == "AFDE50F92310CAF5A5")
        #expect(send(&card, "AFE00616668704D5549C8D6A13A0F8FCED") == "001D9D2954697DE760")
        #expect(send(&card, "C400BEDE0FC6ED347DCF0D51C717DF75D97D2C5A2BA6CAC7479D") == "00", "own key: no CMAC")
        #expect(card.applications[0].keys[0].value == hexBytes("00102031405060708090A0B0B0A09080"))
        #expect(send(&card, "6400") == "0010", "version 10 from the parity bits of 00 10 20 31 40 50 60 70, no session")
        card.applications[0].keys[0] = DESFireApplication.Key(value: zero)
        card.scriptedRandom = hexBytes("CBE9525FB7DF5C3A")
        #expect(send(&card, "1A00") == "AF53A670D78C0DFFD6")
        #expect(send(&card, "AFB308408B575A2025253D49D693CCC29C") == "00525BB01E5B70B794")
        #expect(send(&card, "C4014EB669E48DCA584749542E1BE89CB4C7845A38C57D19DE59") == "002EAD04DCF121E0FE")
        #expect(card.applications[0].keys[1].value == hexBytes("00102031405060708090A0B0B0A09080"))
    }

    /// The legacy Authenticate (`0A`) on a fresh card's DES PICC master key, as a real EV1 answered
    /// it (proxmark3 pull request 3638): each message enciphered alone from IV zero, the reader's
    /// token deciphered in its send mode — a card chaining the IV would answer `5208F5D542600248`.
    /// The wrapped frames of that recording.
    @Test func legacyAuthenticateOnTheFactoryKey() {
        var card = DESFireCard(model: .ev1)
        card.powerOn()
        card.scriptedRandom = hexBytes("CCF53270570A7669")
        #expect(send(&card, "900A0000010000") == "DF6AB29AAE46BA2791AF")
        #expect(send(&card, "90AF00001005EEC31F1E6A0CC31FEF8398A662137000") == "26ACED3C771EF9A09100")
        #expect(send(&card, "9045000000") == "0F019100", "a legacy session adds no MAC to plain answers")
    }

    /// The wrong authentication for a key's type is AUTHENTICATION_ERROR; `0A` and `1A` ask for
    /// DES-family keys, `AA` and `71` for AES.
    @Test func authenticationsFollowTheKeyType() {
        var card = DESFireCard(model: .ev2)
        card.powerOn()
        #expect(send(&card, "AA00") == "AE", "the PICC master key is DES")
        #expect(send(&card, "7100020000") == "AE")
        #expect(send(&card, "0A00").hasPrefix("AF"))
        #expect(send(&card, "45") == "000F01", "DES, one key")
        #expect(send(&card, "CA0302010F41") == "00", "a 3K3DES application with one key")
        #expect(send(&card, "5A030201") == "00")
        #expect(send(&card, "0A00") == "AE", "legacy authentication takes DES and 2K3DES keys only")
        #expect(send(&card, "1A00").count == 2 + 32, "3K3DES: a 16-byte RndB")
    }
}
