import NFCSimulator
import NFCTestSupport
import Testing

/// The emulated ACR122U against ACS's *API-ACR122U* v2.04 (sections in each test) and NXP's
/// UM0701-02 for the PN532 answers inside Direct Transmit.
@Suite struct EmulatedReaderFrontACR122UTests {
    typealias S = PCSCTestSupport

    static func acr122u(_ kind: VirtualTagKind) throws -> EmulatedReaderFront {
        try S.front(kind, profile: .acr122u)
    }

    @Test("§6.3: Get Firmware Version answers ten ASCII bytes and no status word")
    func firmware() throws {
        var front = try Self.acr122u(.ntag216)
        let answer = front.send("FF 00 48 00 00")
        #expect(answer == Array("ACR122U215".utf8))
    }

    @Test("§4.1: Get Data gives the UID with 90 00; the ATS of a storage tag is 6A 81")
    func getData() throws {
        var front = try Self.acr122u(.ntag216)
        #expect(front.send("FF CA 00 00 00") == front.tag.identifier + [0x90, 0x00])
        #expect(front.send("FF CA 01 00 00") == [0x6A, 0x81])
        #expect(front.send("FF CA 05 00 00") == [0x63, 0x00], "the manual's one failure word, not 6B 00")
    }

    @Test("§5.3–5.4: Read Binary of 4 or 16 bytes, never more; Update Binary of one 4-byte page; failures are 63 00")
    func readAndUpdateBinary() throws {
        var front = try Self.acr122u(.ntag216)
        let sixteen = front.send("FF B0 00 04 10")
        #expect(sixteen.count == 18 && S.sw(sixteen) == [0x90, 0x00])
        let four = front.send("FF B0 00 04 04")
        #expect(four == Array(sixteen.prefix(4)) + [0x90, 0x00])
        #expect(front.send("FF B0 00 04 00") == [0x63, 0x00], "Le 00 asks for 256 bytes")
        #expect(front.send("FF B0 00 04 11") == [0x63, 0x00])
        #expect(front.send("FF D6 00 10 04 01 02 03 04") == [0x90, 0x00])
        #expect(front.send("FF B0 00 10 04") == [0x01, 0x02, 0x03, 0x04, 0x90, 0x00])
        #expect(front.send("FF D6 00 10 10 " + String(repeating: "00 ", count: 16)) == [0x63, 0x00], "16 bytes are for MIFARE Classic")
        #expect(front.send("FF B0 00 FF 10") == [0x63, 0x00], "past the end: the tag NAKs")
    }

    @Test("no transparent session, Switch Protocol or other class-FF command: 63 00")
    func noTransparentSession() throws {
        var front = try Self.acr122u(.ntag216)
        #expect(front.send("FF C2 00 00 02 81 00") == [0x63, 0x00])
        #expect(front.send("FF C2 00 02 04 8F 02 03 00") == [0x63, 0x00])
        #expect(front.send("FF 00 51 00 00") == [0x63, 0x00])
    }

    @Test("§6.1 and UM0701-02 §7.2.2: Direct Transmit of GetFirmwareVersion answers D5 03 and 90 00")
    func directTransmitFirmware() throws {
        var front = try Self.acr122u(.ntag216)
        #expect(front.send("FF 00 00 00 02 D4 02") == hexBytes("D5 03 32 01 06 07 90 00"))
        #expect(front.send("FF 00 00 00 02 D5 02") == [0x63, 0x00], "not a host command: the PN532 does not answer")
        #expect(front.send("FF 00 00 00 03 D4 4A 01") == [0x63, 0x7F], "a PN532 command not emulated")
    }

    @Test("InCommunicateThru: READ and GET_VERSION answer with status 00; a WRITE's 4-bit ACK is status 02 though it wrote")
    func communicateThru() throws {
        var front = try Self.acr122u(.ntag216)
        let read = front.send("FF 00 00 00 04 D4 42 30 04")
        #expect(Array(read.prefix(3)) == [0xD5, 0x43, 0x00] && read.count == 3 + 16 + 2 && S.sw(read) == [0x90, 0x00])
        let version = front.send("FF 00 00 00 03 D4 42 60")
        #expect(version == hexBytes("D5 43 00 00 04 04 02 01 00 13 03 90 00"), "NTAG216's GET_VERSION")
        #expect(front.send("FF 00 00 00 08 D4 42 A2 10 0A 0B 0C 0D") == hexBytes("D5 43 02 90 00"))
        #expect(front.send("FF B0 00 10 04") == hexBytes("0A 0B 0C 0D 90 00"), "the write happened")
    }

    @Test("InDataExchange: a WRITE's ACK is status 00, a NAK MIFARE error 14, a MIFARE authentication 14, target 2 error 27")
    func dataExchange() throws {
        var front = try Self.acr122u(.ntag216)
        #expect(front.send("FF 00 00 00 09 D4 40 01 A2 11 01 02 03 04") == hexBytes("D5 41 00 90 00"))
        #expect(front.send("FF 00 00 00 09 D4 40 01 A2 FF 01 02 03 04") == hexBytes("D5 41 14 90 00"), "past the end")
        #expect(front.send("FF 00 00 00 05 D4 40 01 60 04") == hexBytes("D5 41 14 90 00"))
        #expect(front.send("FF 00 00 00 05 D4 40 02 30 04") == hexBytes("D5 41 27 90 00"))
    }

    @Test("observed (nfc-pcsc issue 36): after PWD_AUTH through Direct Transmit, Read Binary fails until the card is powered again")
    func readBinaryAfterPasswordAuthentication() throws {
        var front = try Self.acr122u(.ntag216)
        let pack = front.send("FF 00 00 00 07 D4 42 1B FF FF FF FF")
        #expect(Array(pack.prefix(3)) == [0xD5, 0x43, 0x00] && pack.count == 3 + 2 + 2)
        #expect(front.send("FF B0 00 04 10") == [0x63, 0x00])
        #expect(front.send("FF 00 00 00 04 D4 42 30 04").count == 21, "Direct Transmit still reads")
        front.powerOff()
        front.powerOn()
        #expect(S.sw(front.send("FF B0 00 04 10")) == [0x90, 0x00])
    }

    @Test("§7.3: FeliCa's ATR is standard 03 with card name F0 11, and its frames go through InDataExchange with LEN")
    func felica() throws {
        var front = try Self.acr122u(.felicaLiteS)
        #expect(front.atr == hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 11 00 00 00 00 8A"), "the manual's ATR")
        let idm = front.tag.identifier
        let read = [0x10, 0x06] + idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let answer = front.respond(to: [0xFF, 0x00, 0x00, 0x00, UInt8(read.count + 3), 0xD4, 0x40, 0x01] + read)
        #expect(Array(answer.prefix(4)) == [0xD5, 0x41, 0x00, 0x1D] && answer[4] == 0x07 && S.sw(answer) == [0x90, 0x00])
        #expect(
            front.respond(to: [0xFF, 0x00, 0x00, 0x00, 0x05, 0xD4, 0x40, 0x01, 0x09, 0x06]) == hexBytes("D5 41 01 90 00"), "LEN disagrees")
    }

    @Test("§7.4: Topaz's ATR is standard 03 with card name F0 04; an ISO-DEP card's is built from its ATS")
    func otherATRs() throws {
        let topaz = try Self.acr122u(.topaz512)
        #expect(topaz.atr == hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 F0 04 00 00 00 00 9F"), "the manual's ATR")
        let ntag = try Self.acr122u(.ntag216)
        #expect(ntag.atr == hexBytes("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68"))
        let generic = try S.front(.type4)
        #expect(try Self.acr122u(.type4).atr == generic.atr)
    }

    @Test("ISO-DEP: short APDUs pass through, an extended one is 67 00, a storage tag has nothing to answer one with")
    func isoDEP() throws {
        var front = try Self.acr122u(.type4)
        let select = front.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        #expect(S.sw(select) == [0x90, 0x00])
        #expect(front.send("00 B0 00 00 00 00 10") == [0x67, 0x00])
        var storage = try Self.acr122u(.ntag216)
        #expect(storage.send("00 A4 04 00 00") == [0x63, 0x00])
    }

    @Test("§6.2: the LED and buzzer command sets the final LED state and answers 90 and the state")
    func led() throws {
        var front = try Self.acr122u(.ntag216)
        #expect(front.send("FF 00 40 0E 04 00 00 00 00") == [0x90, 0x02], "green on, red off")
        #expect(front.send("FF 00 40 05 04 00 00 00 00") == [0x90, 0x03], "red on, green untouched")
        #expect(front.send("FF 00 40 05 02 00 00") == [0x63, 0x00])
        #expect(!EmulatedReaderProfile.acr122u.sees(try VirtualTagKind.slix2.make()))
        #expect(EmulatedReaderProfile.generic.sees(try VirtualTagKind.slix2.make()))
    }

    @Test(
        "malformed APDUs get a status word, never a trap",
        arguments: [
            "", "FF", "FF 00", "FF 00 00", "FF 00 00 00", "FF 00 00 00 05 D4", "FF 00 00 00 01 D4", "FF 00 00 00 02 D4 40",
            "FF 00 00 00 03 D4 40 01", "FF 00 00 00 02 D4 42", "FF 00 00 00 00", "FF 00 40 00", "FF B0", "FF B0 00 04",
            "FF D6 00 04 04 01", "00", "00 A4 04 00 FF",
        ])
    func malformed(hex: String) throws {
        for kind in [VirtualTagKind.ntag216, .type4, .felicaLiteS] {
            var front = try Self.acr122u(kind)
            let answer = front.send(hex)
            #expect(answer.count >= 2, "\(kind) \(hex): \(answer)")
        }
    }
}
