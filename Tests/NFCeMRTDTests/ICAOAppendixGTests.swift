import ISO7816
import NFCBytes
import NFCTestSupport
import NFCeMRTD
import Testing

/// The terminal's side of PACE against ICAO Doc 9303 Part 11 (8th edition) Appendix G.1 —
/// ECDH generic mapping on brainpoolP256r1 with AES-128 — byte for byte: the chip's answers are
/// the appendix's, the terminal's private keys the appendix's, and every command the terminal
/// sends must be the appendix's.
@Suite struct ICAOAppendixGTests {
    static func bytes(_ hex: String) -> [UInt8] { (try? [UInt8](hex: hex)) ?? [] }

    /// G.1's document: T22000129, born 640812, expires 101031.
    static let key = try! MRZKey(documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031")
    /// id-PACE-ECDH-GM-AES-CBC-CMAC-128, brainpoolP256r1.
    static let info = PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 2, 2], parameterIdentifier: 13)
    static let keys = PACE.TerminalKeys(
        mapping: bytes("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99"),
        agreement: bytes("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"))

    static let chipAnswers = [
        "9000",
        "7C12801095A3A016522EE98D01E76CB6B98B42C39000",
        "7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C549000",
        "7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F0949000",
        "7C0A86083ABB9674BCE93C089000",
    ]
    static let terminalCommands = [
        "0022C1A40F800A04007F00070202040202830101",
        "10860000027C0000",
        "10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00",
        "10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200",
        "008600000C7C0A8508C2B0BD78D94BA86600",
    ]

    @Test("G.1: the password key, EF.CardAccess's PACEInfo, and every command of the exchange")
    func appendixG1() async throws {
        #expect(Self.key.information == "T22000129364081251010318")
        #expect(PACE.derive(PACEPassword.mrz(Self.key).secret, counter: 3, length: 16) == Self.bytes("89DED1B26624EC1E634C1989302849DD"))
        #expect(try PACEInfo.parse(cardAccess: Self.bytes("31143012060A04007F0007020204020202010202010D")) == [Self.info])
        #expect(Self.info.identifierBytes == Self.bytes("04007F00070202040202"))

        let card = ScriptedTransmitter(Self.chipAnswers.map(Self.bytes))
        let session = try await PACE.establish(password: .mrz(Self.key), info: Self.info, over: card, keys: Self.keys)
        #expect(card.commands.map { Hex.encode($0, uppercase: true) } == Self.terminalCommands)
        #expect(session.isAES && session.sendSequenceCounter == 0)
    }

    @Test("G.1's session keys and tokens: T_IFD over PK_DH,IC and T_IC over PK_DH,IFD")
    func tokens() throws {
        let secret = Self.bytes("28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925")
        #expect(PACE.derive(secret, counter: 1, length: 16) == Self.bytes("F5F0E35C0D7161EE6724EE513A0D9A7F"))
        let mac = PACE.derive(secret, counter: 2, length: 16)
        #expect(mac == Self.bytes("FE251C7858B356B24514B3BD5F4297D1"))
        let oid = Self.info.identifierBytes
        #expect(
            try PACE.token(
                macKey: mac, oid: oid,
                point: Self.bytes(
                    "049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094"
                )) == Self.bytes("C2B0BD78D94BA866"))
        #expect(
            try PACE.token(
                macKey: mac, oid: oid,
                point: Self.bytes(
                    "042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462"
                )) == Self.bytes("3ABB9674BCE93C08"))
    }

    @Test("a chip token that does not verify, and a chip refusing the terminal's token (6300: wrong password)")
    func refusals() async throws {
        var forged = Self.chipAnswers
        forged[4] = "7C0A86083ABB9674BCE93C099000"
        let error = await #expect(throws: EMRTDError.self) {
            try await PACE.establish(
                password: .mrz(Self.key), info: Self.info, over: ScriptedTransmitter(forged.map(Self.bytes)), keys: Self.keys)
        }
        #expect(error?.code == .authenticationFailed)
        var refused = Self.chipAnswers
        refused[4] = "6300"
        let denied = await #expect(throws: EMRTDError.self) {
            try await PACE.establish(
                password: .can("123456"), info: Self.info, over: ScriptedTransmitter(refused.map(Self.bytes)), keys: Self.keys)
        }
        #expect(denied?.code == .accessDenied)
    }

    @Test(
        "protocols this build does not run are refused before any command",
        arguments: [
            PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 1, 2], parameterIdentifier: 0),  // DH generic mapping
            PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 4, 4], parameterIdentifier: 13),  // ECDH integrated mapping, AES-256
            PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 2, 1], parameterIdentifier: 13),  // 3DES
            PACEInfo(protocolIdentifier: [0, 4, 0, 127, 0, 7, 2, 2, 4, 2, 2], parameterIdentifier: 16),  // brainpoolP384r1
        ])
    func unsupported(_ info: PACEInfo) async throws {
        let card = ScriptedTransmitter([])
        let error = await #expect(throws: EMRTDError.self) { try await PACE.establish(password: .can("1"), info: info, over: card) }
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(card.commands.isEmpty)
    }
}
