import NFCBytes
import NFCDESFire
import NFCTestSupport
import Testing

/// The NTAG 424 DNA client replaying NXP AN12196's worked examples (rev. 1.8): with the
/// published RndA, it must send the published commands byte for byte and accept the published
/// answers.
@Suite struct NTAG424ClientTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    /// RndA values handed out in order.
    static func randoms(_ values: [String]) -> @Sendable (Int) -> [UInt8] {
        let queue = Guarded(values.map { hexBytes($0) })
        return { _ in queue.withLock { $0.isEmpty ? [] : $0.removeFirst() } }
    }

    /// AN12196 §6.6 Table 14, §6.8.2 Table 18 and §6.9 Table 19: AuthenticateEV2First with key 0,
    /// WriteData of 128 bytes in full mode (CmdCtr 0), ChangeFileSettings enabling SDM (CmdCtr 1).
    @Test func tables14To19() async throws {
        let card = ScriptedTransmitter([
            hexBytes("A04C124213C186F22399D33AC2A3021591AF"),
            hexBytes("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F081206639100"),
            hexBytes("FC222E5F7A5424529100"),
            hexBytes("57BFF87B1241E93D9100"),
        ])
        let client = NTAG424Client(transmitter: card, random: Self.randoms(["13C5DB8A5930439FC3DEF9A4C675360F"]))
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        let session = try #require(await client.session)
        #expect(session.transactionIdentifier == hexBytes("9D00C4DF"))
        #expect(session.encryptionKey == hexBytes("1309C877509E5A215007FF0ED19CA564"))
        #expect(session.macKey == hexBytes("4C6626F5E72EA694202139295C7A7FC7"))
        let ndef =
            hexBytes("0051D1014D550463686F6F73652E75726C2E636F6D2F6E7461673432343F653D") + Array(repeating: 0x30, count: 32)
            + hexBytes("26633D") + Array(repeating: 0x30, count: 16) + Array(repeating: 0, count: 0x2D)
        try await client.write(ndef, file: 2, mode: .full)
        let settings = NTAG424FileSettings(
            mode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0),
            sdm: NTAG424SDMSettings(
                mirrorsUID: true, mirrorsCounter: true, counterRetrieval: .key(1), metaRead: .key(2), fileRead: .key(1),
                piccDataOffset: 0x20, macInputOffset: 0x43, macOffset: 0x43))
        #expect(Hex.encode(settings.changeBytes, uppercase: true) == "4000E0C1F121200000430000430000")
        try await client.changeFileSettings(2, to: settings, mode: .full)
        #expect(
            card.commands.map { Hex.encode($0, uppercase: true) } == [
                "9071000002000000",
                "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00",
                "908D00009F" + "02000000800000"
                    + "421C73A27D827658AF481FDFF20A5025B559D0E3AA21E58D347F343CFFC768BFE596C706BC00F2176781D4B0242642A0FF5A42C461AAF894D9A1284B8C76BCFA658ACD40555D362E08DB15CF421B51283F9064BCBE20E96CAE545B407C9D651A3315B27373772E5DA2367D2064AE054AF996C6F1F669170FA88CE8C4E3A4A7BBBEF0FD971FF532C3A802AF745660F2B4"
                    + "D1D9A8499661EBF3" + "00",
                "905F0000190261B6D97903566E84C3AE5274467E89EAD799B7C1A0EF7A0400",
            ])
        #expect(await client.session?.commandCounter == 2)
    }

    /// AN12196 §6.10 Table 20 to §6.16 Table 27: key 3, WriteData of the proprietary file, NonFirst
    /// with key 0, a plain WriteData inside the session, ChangeKey of key 2 and then of key 0.
    @Test func tables20To27() async throws {
        let card = ScriptedTransmitter([
            hexBytes("B875CEB0E66A6C5CD00898DC371F92D191AF"),
            hexBytes("0CC9A8094A8EEA683ECAAC5C7BF20584206D0608D477110FC6B3D5D3F65C3A6A9100"),
            hexBytes("C26D236E4A7C046D9100"),
            hexBytes("A6A2B3C572D06C097BB8DB70463E22DC91AF"),
            hexBytes("B888349C24B315EAB5B589E279C8263E9100"),
            hexBytes("9100"),
            hexBytes("203BB55D1089D5879100"),
            hexBytes("9100"),
        ])
        let client = NTAG424Client(
            transmitter: card, random: Self.randoms(["B98F4C50CF1C2E084FD150E33992B048", "60BE759EDA560250AC57CDDC11743CF6"]))
        try await client.authenticate(keyNumber: 3, key: Self.zero)
        #expect(await client.session?.encryptionKey == hexBytes("7A93D6571E4B180FCA6AC90C9A7488D4"))
        try await client.write(hexBytes("0102030405060708090A"), file: 3, mode: .full)
        try await client.authenticateNonFirst(keyNumber: 0, key: Self.zero)
        #expect(await client.session?.macKey == hexBytes("5529860B2FC5FB6154B7F28361D30BF9"))
        #expect(await client.session?.transactionIdentifier == hexBytes("7614281A"))
        try await client.write(hexBytes("FF0506E10500808283000000000000000000"), file: 1, offset: 0x0E, mode: .plain)
        try await client.changeKey(2, to: hexBytes("F3847D627727ED3BC9C4CC050489B966"), version: 1, oldKey: Self.zero)
        try await client.changeKey(0, to: hexBytes("5004BF991F408672B1EF00F08F9E8647"), version: 1, oldKey: Self.zero)
        #expect(await client.session == nil, "changing the session's own key ends the session")
        #expect(
            card.commands.map { Hex.encode($0, uppercase: true) } == [
                "9071000002030000",
                "90AF000020FF0306E47DFBC50087C4D8A78E88E62DE1E8BE457AA477C707E2F0874916A8B100",
                "908D00001F030000000A00006B5E6804909962FC4E3FF5522CF0F8436C0C53315B9C73AA00",
                "90770000010000",
                "90AF000020BE7D45753F2CAB85F34BC60CE58B940763FE969658A532DF6D95EA2773F6E99100",
                "908D000019010E0000120000FF0506E1050080828300000000000000000000",
                "90C4000029022CF362B7BF4311FF3BE1DAA295E8C68DE09050560D19B9E16C2393AE9CD1FAC75D0CE20BCD1D06E600",
                "90C4000029" + "00" + "C0EB4DEEFEDDF0B513A03A95A75491818580503190D4D05053FF75668A01D6FD" + "A6610234BDED6432" + "00",
            ])
    }

    /// AN12196 §5.3 Table 8 (GetFileSettings in MAC mode) and §7.3 Table 29 (GetCardUID in full
    /// mode), whose session keys the note gives directly.
    @Test func tables8And29() throws {
        var settings = EV2Session(
            keyNumber: 0, encryptionKey: Self.zero, macKey: hexBytes("8248134A386E86EB7FAF54A52E536CB6"),
            transactionIdentifier: hexBytes("7A21085E"))
        #expect(try settings.protect(command: 0xF5, header: [0x02], data: [], mode: .mac) == hexBytes("026597A457C8CD442C"))
        let answer = try settings.open(
            response: hexBytes("0040EEEE000100D1FE001F00004400004400002000006A0000" + "2A474282E7A47986"), mode: .mac)
        let parsed = try NTAG424FileSettings(parsing: answer)
        #expect(parsed.mode == .plain && parsed.read == .free && parsed.change == .free && parsed.size == 256)
        let sdm = try #require(parsed.sdm)
        #expect(sdm.metaRead == .key(0) && sdm.fileRead == .key(0) && sdm.counterRetrieval == .free)
        #expect(sdm.piccDataOffset == 0x1F && sdm.macInputOffset == 0x44 && sdm.encryptedDataOffset == 0x44)
        #expect(sdm.encryptedDataLength == 0x20 && sdm.macOffset == 0x6A)
        #expect(Hex.encode(sdm.bytes, uppercase: true) == "D1FE001F00004400004400002000006A0000")

        var uid = EV2Session(
            keyNumber: 0, encryptionKey: hexBytes("2B4D963C014DC36F24F69A50A394F875"), macKey: hexBytes("379D32130CE61705DD5FD8C36B95D764"),
            transactionIdentifier: hexBytes("DF055522"))
        #expect(try uid.protect(command: 0x51, header: [], data: [], mode: .full) == hexBytes("8E2C155ADDA99BE3"))
        #expect(
            try uid.open(response: hexBytes("70756055688505B52A5E26E59E329CD6" + "595F672298EA41B7"), mode: .full)
                == hexBytes("04958CAA5C5E80"))
        #expect(uid.commandCounter == 1)
    }

    /// A tampered answer MAC is `.responseIntegrity`, and the client forgets the session.
    @Test func aWrongAnswerMACEndsTheSession() async throws {
        let card = ScriptedTransmitter([
            hexBytes("A04C124213C186F22399D33AC2A3021591AF"),
            hexBytes("3FA64DB5446D1F34CD6EA311167F5E4985B89690C04A05F17FA7AB2F081206639100"),
            hexBytes("FC222E5F7A5424539100"),
        ])
        let client = NTAG424Client(transmitter: card, random: Self.randoms(["13C5DB8A5930439FC3DEF9A4C675360F"]))
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        let error = await #expect(throws: DESFireError.self) {
            try await client.write(Array(repeating: 0, count: 128), file: 2, mode: .full)
        }
        #expect(error?.code == .responseIntegrity)
        #expect(await client.session == nil)
    }

    /// A refusal names the command and its status; a card that answers ISO status words is `.cardStatus`.
    @Test func refusalsAreTyped() async throws {
        let card = ScriptedTransmitter([hexBytes("91AE"), hexBytes("6A82")])
        let client = NTAG424Client(transmitter: card)
        let refused = await #expect(throws: DESFireError.self) { try await client.authenticate(keyNumber: 0, key: Self.zero) }
        #expect(refused?.code == .authenticationError && refused?.status == 0x91AE)
        #expect(refused?.reason.contains("AuthenticateEV2First") == true)
        let other = await #expect(throws: DESFireError.self) { _ = try await client.version() }
        #expect(other?.code == .cardStatus && other?.status == 0x6A82)
    }
}
