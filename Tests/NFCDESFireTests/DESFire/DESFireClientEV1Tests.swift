import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The DESFire client's legacy, ISO and AES authentications and EV1 secure messaging against
/// exchanges recorded from real MIFARE DESFire EV1 cards (Elmü's recordings, kept in the test
/// suites of skelsec/pydesfire and patsys/desfire-python; proxmark3 pull request 3638 for the legacy
/// one): with the recorded RndA, the client must send the recorded commands byte for byte and
/// accept the recorded answers, CMACs included (docs/desfire.md).
@Suite struct DESFireClientEV1Tests {
    static let zero8 = [UInt8](repeating: 0, count: 8)
    static let zero16 = [UInt8](repeating: 0, count: 16)

    static func card(_ answers: [String]) -> ScriptedTransmitter { ScriptedTransmitter(answers.map { hexBytes($0) }) }

    static func sent(_ card: ScriptedTransmitter) -> [String] { card.commands.map { Hex.encode($0, uppercase: true) } }

    /// A fresh card's DES PICC master key through AuthenticateISO, then GetVersion, FormatPICC,
    /// four CreateApplications (DES, 3K3DES, AES, DES), the list, a DeleteApplication and the list
    /// again — each answer's CMAC chained from the one before.
    @Test func desSessionAtThePICCLevel() async throws {
        let card = Self.card([
            "5D994CE085F2408991AF", "913C6DED84221C419100",
            "04010101001A0591AF", "04010101041A0591AF", "04063F72633480BA4519E3204913CDC810BAFA4017599100",
            "9C2C813A065C45F79100",
            "0A1379B01D85AD479100", "5D73AE5287A1BBE49100", "3B68D72A3BE0D20C9100", "F11AC0738EF838789100",
            "16DE0024DE0016AE00CCBBAA2739154E2630D6509100",
            "A9AF19052292F6629100",
            "16DE0024DE0016AE00520E51E00AF06D5E9100",
        ])
        let client = DESFireClient(transmitter: card, random: NTAG424ClientTests.randoms(["849B36C5F8BF4A09"]))
        try await client.authenticate(keyNumber: 0, key: Self.zero8, method: .iso)
        guard case .ev1(let session)? = await client.channel else {
            Issue.record("no EV1 session")
            return
        }
        #expect(Array(session.sessionKey.prefix(8)) == hexBytes("849B36C54FD1B759"), "DES: RndA[0..3] ‖ RndB[0..3]")
        let version = try await client.version()
        #expect(version.uid == hexBytes("04063F72633480"))
        try await client.formatPICC()
        for (aid, keys, type) in [
            (0x00DE16, 2, NFCDESFire.DESFireKeyType.des), (0x00DE24, 2, .tdes3), (0x00AE16, 2, .aes), (0xAABBCC, 1, .des),
        ] {
            try await client.createApplication(DESFireAID(UInt32(aid))!, keySettings: 0x0F, keyCount: keys, keyType: type)
        }
        #expect(try await client.applicationIDs().count == 4)
        try await client.deleteApplication(DESFireAID(0xAABBCC)!)
        #expect(try await client.applicationIDs() == [DESFireAID(0x00DE16)!, DESFireAID(0x00DE24)!, DESFireAID(0x00AE16)!])
        #expect(
            Self.sent(card) == [
                "901A0000010000", "90AF00001021D0AD5F2FD97454A746CC80567F1B1C00",
                "9060000000", "90AF000000", "90AF000000", "90FC000000",
                "90CA00000516DE000F0200", "90CA00000524DE000F4200", "90CA00000516AE000F8200", "90CA000005CCBBAA0F0100",
                "906A000000", "90DA000003CCBBAA00", "906A000000",
            ])
    }

    /// In an application's DES session: GetKeySettings, ChangeKeySettings enciphered from the
    /// running IV (`0D ‖ CRC32(54 0D)`, no command CMAC) and the settings read back.
    @Test func desSessionChangesKeySettings() async throws {
        let card = Self.card([
            "9100", "8476D1CF3024B7C791AF", "13E9E4FA4388BF169100",
            "0F0225DD8D7731B1CFD59100", "A628378374270ACD9100", "0D02613FB2D3F453D2E49100",
        ])
        let client = DESFireClient(transmitter: card, random: NTAG424ClientTests.randoms(["49EC63DECDE00772"]))
        try await client.selectApplication(DESFireAID(0x00DE16)!)
        try await client.authenticate(keyNumber: 0, key: Self.zero16, method: .iso)
        #expect(try await client.keySettings().rawValue == 0x0F)
        try await client.changeKeySettings(0x0D)
        #expect(try await client.keySettings().rawValue == 0x0D)
        #expect(Self.sent(card)[4] == "905400000827882805FC3FD49D00")
    }

    /// ChangeKey in DES sessions: the session's own key to a 2K3DES key (version 10 in its parity
    /// bits), then another key under key 0 twice — (new ⊕ old) ‖ CRC32(C4 ‖ KeyNo ‖ that) ‖
    /// CRC32(new), the answer's CMAC checked.
    @Test func desSessionChangesKeys() async throws {
        let first: [UInt8] = hexBytes("00102030405060708090A0B0B0A09080")
        let second: [UInt8] = hexBytes("10182028303840485058606870788088")
        let own = Self.card(["9100", "DE50F92310CAF5A591AF", "1D9D2954697DE7609100", "9100"])
        let client = DESFireClient(transmitter: own, random: NTAG424ClientTests.randoms(["C96CE35E4D6087F2"]))
        try await client.selectApplication(DESFireAID(0x00DE16)!)
        try await client.authenticate(keyNumber: 0, key: Self.zero16, method: .iso)
        try await client.changeKey(0, to: first, version: 0x10, oldKey: Self.zero16)
        #expect(Self.sent(own).last == "90C400001900BEDE0FC6ED347DCF0D51C717DF75D97D2C5A2BA6CAC7479D00")
        #expect(await client.channel == nil, "changing the session's key ends the session")

        let other = Self.card([
            "9100", "53A670D78C0DFFD691AF", "525BB01E5B70B7949100", "2EAD04DCF121E0FE9100", "CB0A5064055128939100",
        ])
        let next = DESFireClient(transmitter: other, random: NTAG424ClientTests.randoms(["CBA675E8EFBAB99C"]))
        try await next.selectApplication(DESFireAID(0x00DE16)!)
        try await next.authenticate(keyNumber: 0, key: Self.zero16, method: .iso)
        try await next.changeKey(1, to: first, version: 0x10, oldKey: Self.zero16)
        try await next.changeKey(1, to: second, version: 0x10, oldKey: NFCDESFire.DESFireKeyType.des.withVersion(first, 0x10))
        #expect(
            Array(Self.sent(other).suffix(3)) == [
                "90AF000010B308408B575A2025253D49D693CCC29C00",
                "90C4000019014EB669E48DCA584749542E1BE89CB4C7845A38C57D19DE5900",
                "90C400001901FA7BEFA6782C93E8D69CF7352CFD33DF5BC8AC4FBA4906FC00",
            ])
        #expect(await next.channel != nil, "another key's change keeps the session")
    }

    /// AuthenticateAES with key 1, then a plain file created, listed, written in two parts, read in
    /// two parts and deleted: every command and CMAC as recorded.
    @Test func aesSessionOverAPlainFile() async throws {
        let bytes = (0x00...0x4F).map { UInt8($0) }
        let card = Self.card([
            "9100", "B351CB2465D4F33AC627FD6E87A168F291AF", "A2EE144B1012FBEB7B2F11132D95A4549100",
            "A75316AD1596B9539100", "052D5FF67FFEC9D2D39100", "00001100500000" + "2AAC7517024E09DC9100",
            "765C9DAA50ECB62F9100", "3E0AED986B8B0F379100",
            Hex.encode(Array(bytes.prefix(0x30)), uppercase: true) + "4C65F1F842262BAC9100",
            Hex.encode(Array(bytes[0x30...]), uppercase: true) + "F02205CF913C03C99100",
            "1BEF0D32B6D1D7F99100",
        ])
        let client = DESFireClient(transmitter: card, random: NTAG424ClientTests.randoms(["40E7D27174CBA675E8EFBAB99C530E3D"]))
        try await client.selectApplication(DESFireAID(0x00AE16)!)
        try await client.authenticate(keyNumber: 1, key: hexBytes("10182028303840485058606870788088"), method: .aes)
        let access = DESFireClient.FileAccess(mode: .plain, read: .key(0), write: .key(0), readWrite: .key(1), change: .key(1))
        try await client.createDataFile(5, size: 0x50, access: access)
        #expect(try await client.fileIDs() == [5])
        let settings = try await client.fileSettings(5)
        try await client.write(Array(bytes.prefix(0x34)), file: 5, offset: 0, settings: settings)
        try await client.write(Array(bytes[0x34...]), file: 5, offset: 0x34, settings: settings)
        let head = try await client.read(file: 5, offset: 0, length: 0x30, settings: settings)
        let tail = try await client.read(file: 5, offset: 0x30, length: 0x20, settings: settings)
        #expect(head + tail == bytes)
        try await client.deleteFile(5)
        #expect(
            Self.sent(card)[1...4] == [
                "90AA0000010100", "90AF000020044B6CAC343A0865895149649CA8DDE1F5AC4EC67BD208900AF02F049E05F0B000",
                "90CD0000070500110050000000", "906F000000",
            ])
    }

    /// AuthenticateISO with a 3K3DES key of zeros and AuthenticateAES with an AES key of zeros, as
    /// recorded: 16-byte randoms, the token chained from E(RndB)'s last block, the session keys.
    @Test func authenticateISOWith3K3DESAndAES() async throws {
        let tdes = Self.card(["BC1C570BC948156187132364E4DCE17691AF", "7244D935ED9A1306CD8C841A7C1DE39A9100"])
        let client = DESFireClient(transmitter: tdes, random: NTAG424ClientTests.randoms(["36C5F8BF4A09AC239E8DA0C73251D4AB"]))
        try await client.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 24), method: .iso)
        #expect(Self.sent(tdes)[1] == "90AF000020DDDC9A77597F03A40C7FAA362F45A8EADBE46A115D98198CBF36A6E51B39D87C00")
        guard case .ev1(let session)? = await client.channel else {
            Issue.record("no EV1 session")
            return
        }
        #expect(session.keyType == .tdes3)
        #expect(session.sessionKey == hexBytes("36C5F8BF316E6D76AC239E8DF925BA303251D4AB653656A2"))
        let aes = Self.card(["B969FDFE56FD91FC9DE6F6F213B8FD1E91AF", "800DB680BC146BD121D6578F2D2E20599100"])
        let other = DESFireClient(transmitter: aes, random: NTAG424ClientTests.randoms(["F44B26F5686F3A391CD38EBD10772281"]))
        try await other.authenticate(keyNumber: 0, key: Self.zero16, method: .aes)
        #expect(Self.sent(aes)[1] == "90AF00002036AAD7DF6E436BA08D18613830A70D5AD43E3D3F4A8D47541EEE623A934E477400")
        guard case .ev1(let aesSession)? = await other.channel else {
            Issue.record("no EV1 session")
            return
        }
        #expect(aesSession.sessionKey == hexBytes("F44B26F5C05DDD7110772281C4D066E8"))
    }

    /// Files in full and MAC mode through every EV1 and legacy session, written and read back at
    /// every length from 1 to 40 bytes: the CRC found behind any zero padding (a CRC ending in
    /// zero bytes included), reads MACed on the answer only, writes on the command (and, in a
    /// legacy session, not on the answer).
    @Test(arguments: [(NFCDESFire.DESFireKeyType.des, DESFireAuthentication.iso), (.des, .legacy), (.tdes3, .iso), (.aes, .aes)])
    func everyLengthThroughEV1SecureMessaging(type: NFCDESFire.DESFireKeyType, method: DESFireAuthentication) async throws {
        let (client, _, _) = try await DESFireClientTests.connect(DESFireCard(model: .ev1))
        let aid = try #require(DESFireAID(0x00E1E1))
        try await client.createApplication(aid, keySettings: 0x0F, keyCount: 1, keyType: type)
        try await client.selectApplication(aid)
        let key = [UInt8](repeating: 0, count: type.keyLength)
        try await client.authenticate(keyNumber: 0, key: key, method: method)
        let keyed = DESFireClient.FileAccess(mode: .full, read: .key(0), write: .key(0), readWrite: .key(0))
        try await client.createDataFile(1, size: 40, access: keyed)
        var macMode = keyed
        macMode.mode = .mac
        try await client.createDataFile(2, size: 40, access: macMode)
        var generator = SystemRandomNumberGenerator()
        for length in 1...40 {
            for file: UInt8 in [1, 2] {
                let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                do {
                    try await client.write(data, file: file)
                } catch {
                    Issue.record("file \(file), \(length) bytes: \(error)")
                    return
                }
                #expect(try await client.read(file: file, length: length) == data, "file \(file), \(length) bytes")
            }
        }
        #expect(await client.channel?.method == method, "the session lasted")
    }

    /// A wrong CMAC on an answer ends the session with `.responseIntegrity`.
    @Test func aWrongCMACEndsTheSession() async throws {
        let card = Self.card(["5D994CE085F2408991AF", "913C6DED84221C419100", "9C2C813A065C45F89100"])
        let client = DESFireClient(transmitter: card, random: NTAG424ClientTests.randoms(["849B36C5F8BF4A09"]))
        try await client.authenticate(keyNumber: 0, key: Self.zero8, method: .iso)
        await #expect(throws: DESFireError(.responseIntegrity, "")) { try await client.formatPICC() }
        #expect(await client.channel == nil)
    }

    /// The legacy Authenticate on the recorded factory key: the token in the reader's send mode.
    @Test func legacyAuthenticate() async throws {
        let card = Self.card(["DF6AB29AAE46BA2791AF", "26ACED3C771EF9A09100"])
        let client = DESFireClient(transmitter: card, random: NTAG424ClientTests.randoms(["A0A1A2A3A4A5A6A7"]))
        try await client.authenticate(keyNumber: 0, key: Self.zero16, method: .legacy)
        #expect(Self.sent(card)[1] == "90AF00001005EEC31F1E6A0CC31FEF8398A662137000")
        #expect(await client.channel?.method == .legacy)
        await #expect(throws: DESFireError(.wrongKey, "")) {
            try await client.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 24), method: .legacy)
        }
    }
}
