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
        let applet = try PassportIssuer.issue(PassportHolder(requiresBAC: false))
        let back = try PassportApplet(image: applet.image)
        #expect(back.image == applet.image)
        #expect(back.files.map(\.identifier) == [0x011E, 0x0101, 0x0102, 0x0103, 0x010B, 0x010C, 0x011D])
        #expect(!back.requiresBAC && back.eacFiles == [0x0103, 0x0104])
    }

    @Test("image fields that cannot be: a bad date, a duplicate file", arguments: ["date", "duplicate"])
    func badImage(_ fault: String) throws {
        var image = try PassportIssuer.issue(PassportHolder()).image
        if fault == "date" { image.dateOfBirth = "7408" } else { image.files.append(image.files[0]) }
        let error = #expect(throws: TagImageError.self) { try PassportApplet(image: image) }
        #expect(error?.field == (fault == "date" ? "dateOfBirth" : "files[7].id"))
    }
}
