import NFCSimulator
import NFCTestSupport
import Testing

/// The emulated HID OMNIKEY 5022 and 5427 CK against what HID publishes: its sample code
/// (*HID-OMNIKEY-Sample-Codes*, classes named in each test) and the CCID driver's descriptor.
@Suite struct EmulatedReaderFrontOmnikeyTests {
    typealias S = PCSCTestSupport

    @Test("ContactlessCardCommunication: Read Binary answers a Type 2 READ's 16 bytes whatever Le asks (nfc4pc's NDEF.java on the 5022)")
    func readBinaryAnswersSixteen() throws {
        var front = try S.front(.ntag216, profile: .omnikey5022)
        let sixteen = front.send("FF B0 00 04 10")
        #expect(sixteen.count == 18 && S.sw(sixteen) == [0x90, 0x00])
        #expect(front.send("FF B0 00 04 04") == sixteen, "asked for 4, answers 16")
        #expect(front.send("FF B0 00 04 00") == sixteen)
        #expect(front.send("FF B0 00 FF 10") == [0x6A, 0x82], "a page the tag refuses: illegal block number")
        #expect(front.send("FF B0 01 00 10") == [0x6A, 0x82])
    }

    @Test("Update Binary writes one 4-byte page; a refused page is 69 82 (SEProcessorCommands: block not authenticated)")
    func updateBinary() throws {
        var front = try S.front(.ntag216, profile: .omnikey5022)
        #expect(front.send("FF D6 00 10 04 01 02 03 04") == [0x90, 0x00])
        #expect(S.data(front.send("FF B0 00 10 04")).prefix(4) == [1, 2, 3, 4])
        #expect(front.send("FF D6 00 10 03 01 02 03") == [0x67, 0x00])
        #expect(front.send("FF D6 00 FF 04 01 02 03 04") == [0x69, 0x82])
    }

    @Test("no transparent session: FF C2 is an instruction the firmware does not have (6D 00)")
    func noTransparentSession() throws {
        var front = try S.front(.ntag216, profile: .omnikey5022)
        #expect(front.send("FF C2 00 00 02 81 00") == [0x6D, 0x00])
        #expect(front.send("FF 00 48 00 00") == [0x6D, 0x00], "not an ACR122U")
    }

    @Test(
        "ReaderCapabilities: the FF 70 07 6B envelope names the product, firmware and vendor; an unknown item is 9E 02 00 04",
        arguments: [(EmulatedReaderProfile.omnikey5022, "OMNIKEY 5022 Smart Card Reader"), (.omnikey5427, "OMNIKEY 5427 CK")])
    func capabilitiesEnvelope(profile: EmulatedReaderProfile, name: String) throws {
        var front = try S.front(.ntag216, profile: profile)
        let product = front.send("FF 70 07 6B 08 A2 06 A0 04 A0 02 82 00 00")
        #expect(product == [0xBD, UInt8(name.utf8.count + 2), 0x82, UInt8(name.utf8.count)] + Array(name.utf8) + [0x90, 0x00])
        #expect(front.send("FF 70 07 6B 08 A2 06 A0 04 A0 02 85 00 00") == hexBytes("BD 05 85 03 02 00 00 90 00"))
        #expect(front.send("FF 70 07 6B 08 A2 06 A0 04 A0 02 99 00 00") == hexBytes("9E 02 00 04 90 00"))
        #expect(front.send("FF 70 07 6B 02 A2 00 00") == hexBytes("9E 02 00 05 90 00"))
    }

    @Test("ISO/IEC 15693 (HID's Iso15693CardExample): Read Binary with Le 00 gives one block, Update Binary writes one")
    func iso15693() throws {
        var front = try S.front(.slix2, profile: .omnikey5022)
        #expect(front.send("FF D6 00 05 04 0A 0B 0C 0D") == [0x90, 0x00])
        #expect(front.send("FF B0 00 05 00") == [0x0A, 0x0B, 0x0C, 0x0D, 0x90, 0x00])
        #expect(front.send("FF B0 00 F0 00") == [0x6A, 0x82], "beyond the last block")
    }

    @Test("FeliCa: the IDm through Get Data, and no read or write (6A 81)")
    func felicaIDmOnly() throws {
        var front = try S.front(.felicaLiteS, profile: .omnikey5022)
        #expect(S.data(front.send("FF CA 00 00 00")) == front.tag.identifier)
        #expect(front.send("FF B0 00 00 10") == [0x6A, 0x81])
    }

    @Test("ISO-DEP: APDUs up to 510 bytes pass (a 520-byte CCID message less its header); longer ones are 67 00")
    func apduLimit() throws {
        var front = try S.front(.type4, profile: .omnikey5022)
        let select = front.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00")
        #expect(S.sw(select) == [0x90, 0x00])
        let long = [0x00, 0xD6, 0x00, 0x00, 0x00, 0x02, 0x00] + [UInt8](repeating: 0, count: 512)
        #expect(front.respond(to: long) == [0x67, 0x00])
        #expect(front.send("80 01 02 03") != [0x67, 0x00])
    }

    @Test("a storage tag has nothing to answer another class (6E 00)")
    func otherClass() throws {
        var front = try S.front(.ntag216, profile: .omnikey5427)
        #expect(front.send("00 A4 04 00 00") == [0x6E, 0x00])
    }
}
