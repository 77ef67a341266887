import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// The virtual passport's chip side against ICAO Doc 9303 Part 11 Appendix D's worked example,
/// byte for byte: the chip of D.3 (RND.IC `4608F91988702212`, K.IC `0B4F80323EB3191CB04970CB4052790B`)
/// for the MRZ of D.2 (`L898902C<`, `690806`, `940623`), holding the EF.COM of D.4.
@Suite struct PassportAppletTests {
    /// EF.COM as D.4.3 reads it.
    static let com = "60145F0104303130365F36063034303030305C026175"

    static func appendixDCard() throws -> ISO7816Card {
        var applet = PassportApplet(
            documentNumber: "L898902C<", dateOfBirth: "690806", dateOfExpiry: "940623",
            files: [PassportApplet.File(identifier: 0x011E, content: try [UInt8](hex: Self.com))])
        applet.scriptedRandom = try [UInt8](hex: "4608F91988702212" + "0B4F80323EB3191CB04970CB4052790B")
        return PassportApplet.card(applet)
    }

    func send(_ card: inout ISO7816Card, _ hex: String) throws -> String {
        let answer = card.respond(to: try [UInt8](hex: hex), context: ExchangeContext())
        return Hex.encode(answer.transceivedBytes ?? [], uppercase: true)
    }

    @Test("Appendix D.3 and D.4: GET CHALLENGE, EXTERNAL AUTHENTICATE, and the protected SELECT and READ BINARYs answered byte for byte")
    func appendixD() throws {
        var card = try Self.appendixDCard()
        #expect(try send(&card, "00A4040C07A0000002471001") == "9000")
        // D.3: the challenge, then E_IFD ‖ M_IFD answered with E_IC ‖ M_IC.
        #expect(try send(&card, "0084000008") == "4608F919887022129000")
        #expect(
            try send(&card, "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728")
                == "46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D74499000")
        // D.4.1: SELECT EF.COM, SSC 887022120C06C227/228.
        #expect(try send(&card, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == "990290008E08FA855A5D4C50A8ED9000")
        // D.4.2: READ BINARY of 4 bytes.
        #expect(try send(&card, "0CB000000D9701048E08ED6705417E96BA5500") == "8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000")
        // D.4.3: READ BINARY of the remaining 18 bytes from offset 4.
        #expect(
            try send(&card, "0CB000040D9701128E082EA28A70F3C7B53500")
                == "871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000")
    }

    @Test("a wrong M_IFD answers 6300 and opens nothing; a protected command then gets 6988")
    func wrongMAC() throws {
        var card = try Self.appendixDCard()
        _ = try send(&card, "00A4040C07A0000002471001")
        _ = try send(&card, "0084000008")
        #expect(
            try send(&card, "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A628") == "6300")
        #expect(try send(&card, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == "6988")
    }

    @Test("a protected command with a wrong MAC ends the session: 6988, and the next correct one gets 6988 too")
    func tamperedCommandEndsSession() throws {
        var card = try Self.appendixDCard()
        _ = try send(&card, "00A4040C07A0000002471001")
        _ = try send(&card, "0084000008")
        _ = try send(&card, "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728")
        #expect(try send(&card, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F900") == "6988")
        #expect(try send(&card, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == "6988")
    }

    @Test("a plain command after BAC ends the session: the chip forgets the keys (Part 11 §9.8.4)")
    func plainCommandEndsSession() throws {
        var card = try Self.appendixDCard()
        _ = try send(&card, "00A4040C07A0000002471001")
        _ = try send(&card, "0084000008")
        _ = try send(&card, "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728")
        #expect(try send(&card, "00B0000004") == "6982", "plain READ BINARY: no session, no access")
        #expect(try send(&card, "0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800") == "6988", "the session is gone")
    }

    @Test("before BAC: READ BINARY 6982; EXTERNAL AUTHENTICATE without a challenge 6985")
    func beforeBAC() throws {
        var card = try Self.appendixDCard()
        _ = try send(&card, "00A4040C07A0000002471001")
        #expect(try send(&card, "00A4020C02011E") == "9000")
        #expect(try send(&card, "00B0000004") == "6982")
        #expect(
            try send(&card, "008200002872C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F25F1448EEA8AD90A728") == "6985")
    }

    @Test("the issued specimen's DG1 is the ICAO Doc 9303 Part 4 specimen MRZ, check digits included")
    func specimenMRZ() throws {
        let applet = try PassportIssuer.issue(PassportHolder())
        let dg1 = try #require(applet.files.first { $0.identifier == 0x0101 })
        #expect(
            String(decoding: dg1.content.dropFirst(5), as: UTF8.self)
                == "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<" + "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
    }

    @Test("an image keeps the application: files, EAC files, MRZ fields, BAC, the CSCA")
    func imageRoundTrip() throws {
        let applet = try PassportIssuer.issue(
            PassportHolder(bac: false, pace: PassportApplet.PACESettings(parameterIdentifier: 12, can: "31415")))
        let back = try PassportApplet(image: applet.image)
        #expect(back.image == applet.image)
        #expect(back.files.map(\.identifier) == [0x011E, 0x0101, 0x0102, 0x0103, 0x010B, 0x010C, 0x010E, 0x010F, 0x011D])
        #expect(back.chipAuthentication == applet.chipAuthentication && back.chipAuthentication != nil)
        #expect(back.activeAuthenticationKey == applet.activeAuthenticationKey && back.activeAuthenticationKey?.count == 32)
        #expect(!back.bac && back.eacFiles == [0x0103, 0x0104])
        #expect(back.pace == PassportApplet.PACESettings(parameterIdentifier: 12, can: "31415"))
    }

    @Test(
        "image fields that cannot be: a bad date, a duplicate file, unknown curve, a CAN with letters",
        arguments: [
            ("date", "dateOfBirth"), ("duplicate", "files[9].id"), ("curve", "pace.parameterId"), ("can", "pace.can"),
            ("mapping", "pace.mapping"), ("caCurve", "chipAuthentication.parameterId"), ("caKey", "chipAuthentication.key"),
            ("caCipher", "chipAuthentication.cipher"), ("aaKey", "activeAuthenticationKey"),
        ])
    func badImage(_ fault: String, _ field: String) throws {
        var image = try PassportIssuer.issue(PassportHolder()).image
        switch fault {
        case "date": image.dateOfBirth = "7408"
        case "duplicate": image.files.append(image.files[0])
        case "curve": image.pace?.parameterId = 16
        case "mapping": image.pace?.mapping = "CAM"
        case "caCurve": image.chipAuthentication?.parameterId = 0
        case "caKey": image.chipAuthentication?.key = HexBytes([UInt8](repeating: 0xFF, count: 32))
        case "caCipher": image.chipAuthentication?.cipher = "AES-256"
        case "aaKey": image.activeAuthenticationKey = HexBytes([1, 2, 3])
        default: image.pace?.can = "12A4"
        }
        let error = #expect(throws: TagImageError.self) { try PassportApplet(image: image) }
        #expect(error?.field == field)
    }

    /// G.1's chip: MRZ T22000129 / 640812 / 101031, PACE on brainpoolP256r1, its nonce s and
    /// private keys SK_map,IC and SK_DH,IC scripted.
    static func appendixGCard() throws -> ISO7816Card {
        var applet = PassportApplet(
            documentNumber: "T22000129", dateOfBirth: "640812", dateOfExpiry: "101031", bac: false,
            pace: PassportApplet.PACESettings(parameterIdentifier: 13, can: nil),
            files: [PassportApplet.File(identifier: 0x011E, content: try [UInt8](hex: Self.com))])
        applet.scriptedRandom = try [UInt8](
            hex: "3F00C4D39D153F2B2A214A078D899B22" + "498FF49756F2DC1587840041839A85982BE7761D14715FB091EFA7BCE9058560"
                + "107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A")
        return PassportApplet.card(applet)
    }

    @Test("Appendix G.1, the chip's side: EF.CardAccess, MSE:Set AT and the four General Authenticate answers byte for byte")
    func appendixG1() throws {
        var card = try Self.appendixGCard()
        #expect(try send(&card, "00A4020C02011C") == "9000")
        #expect(try send(&card, "00B0000016") == "31143012060A04007F0007020204020202010202010D9000")
        #expect(try send(&card, "0022C1A40F800A04007F00070202040202830101") == "9000")
        #expect(try send(&card, "10860000027C0000") == "7C12801095A3A016522EE98D01E76CB6B98B42C39000")
        #expect(
            try send(
                &card,
                "10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00"
            )
                == "7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C549000"
        )
        #expect(
            try send(
                &card,
                "10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200"
            )
                == "7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F0949000"
        )
        #expect(try send(&card, "008600000C7C0A8508C2B0BD78D94BA86600") == "7C0A86083ABB9674BCE93C089000")
        // A PACE-only chip: BAC is not offered, and files stay closed to plain commands.
        #expect(try send(&card, "0084000008") == "6D00")
    }

    @Test("PACE with a wrong token (a wrong password) answers 6300 and opens nothing; steps out of order 6985")
    func paceRefusals() throws {
        var card = try Self.appendixGCard()
        _ = try send(&card, "0022C1A40F800A04007F00070202040202830101")
        #expect(try send(&card, "10860000457C43834104" + String(repeating: "00", count: 64) + "00") == "6985")
        #expect(try send(&card, "10860000027C0000") == "6985", "the run ended with the refused step")
        _ = try send(&card, "0022C1A40F800A04007F00070202040202830101")
        _ = try send(&card, "10860000027C0000")
        _ = try send(
            &card,
            "10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00"
        )
        _ = try send(
            &card,
            "10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200"
        )
        #expect(try send(&card, "008600000C7C0A8508C2B0BD78D94BA86700") == "6300")
        #expect(try send(&card, "00A4040C07A0000002471001") == "9000")
        #expect(try send(&card, "00A4020C02011E") == "9000")
        #expect(try send(&card, "00B0000004") == "6982")
        #expect(try send(&card, "0022C1A40F800A04007F00070202040202830102") == "6A88", "no CAN on this chip")
    }
}
