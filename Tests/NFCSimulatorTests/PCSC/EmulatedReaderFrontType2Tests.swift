import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// FF CA / FF B0 / FF D6 / FF C2 on an NTAG216 (PC/SC Part 3 §3.2.2.1; NFC Forum T2T §5).
@Suite("Emulated reader: Type 2")
struct EmulatedReaderFrontType2Tests {
    typealias S = PCSCTestSupport

    @Test("GET DATA: the UID, with Le 00, exact, too short and too long")
    func getData() throws {
        var front = try S.front(.ntag216)
        let uid = front.tag.identifier
        #expect(uid.count == 7)
        #expect(front.send("FF CA 00 00 00") == uid + [0x90, 0x00])
        #expect(front.send("FF CA 00 00 07") == uid + [0x90, 0x00])
        #expect(front.send("FF CA 00 00 04") == [0x6C, 0x07])
        #expect(front.send("FF CA 00 00 0A") == uid + [0x62, 0x82])
        #expect(front.send("FF CA 01 00 00") == [0x6A, 0x81], "no ATS on a Type 2 tag")
        #expect(front.send("FF CA 02 00 00") == [0x6B, 0x00])
        #expect(front.send("FF CA 00 01 00") == [0x6B, 0x00])
        #expect(front.send("FF CA 00 00") == [0x67, 0x00], "no Le")
        #expect(front.commandCount == 8)
        #expect(!front.lastCommandWroteMemory)
    }

    @Test("READ BINARY: 16 bytes from a page, cut to Le")
    func readBinary() throws {
        var front = try S.front(.ntag216)
        let tag = try #require(front.tag as? Type2Tag)
        let expected = (3..<7).flatMap { tag.page($0) }
        #expect(front.send("FF B0 00 03 00") == expected + [0x90, 0x00])
        #expect(front.send("FF B0 00 03 10") == expected + [0x90, 0x00])
        #expect(front.send("FF B0 00 03 04") == Array(expected.prefix(4)) + [0x90, 0x00])
        #expect(Array(expected.prefix(4)) == [0xE1, 0x10, 0x6D, 0x00], "NTAG216's capability container")
        #expect(front.send("FF B0 00 03 11") == [0x67, 0x00], "more than one READ gives")
        #expect(front.send("FF B0 01 03 00") == [0x6A, 0x82], "pages are 8-bit")
        #expect(front.send("FF B0 00 03") == [0x67, 0x00], "no Le")
    }

    @Test("A NAK is 63 00, and the reader selects the tag again for the next command")
    func nakThenRecover() throws {
        var front = try S.front(.ntag216)
        #expect(front.send("FF B0 00 FF 00") == [0x63, 0x00], "page FF is beyond NTAG216's 231 pages")
        #expect(S.sw(front.send("FF B0 00 04 00")) == [0x90, 0x00])
        #expect(front.send("FF D6 00 00 04 00 00 00 00") == [0x63, 0x00], "the UID page is read-only")
        #expect(S.sw(front.send("FF B0 00 04 04")) == [0x90, 0x00])
    }

    @Test("UPDATE BINARY writes one page and reports the write")
    func updateBinary() throws {
        var front = try S.front(.ntag216)
        #expect(front.send("FF D6 00 05 04 DE AD BE EF") == [0x90, 0x00])
        #expect(front.lastCommandWroteMemory)
        #expect(try #require(front.tag as? Type2Tag).page(5) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(front.send("FF B0 00 05 04") == [0xDE, 0xAD, 0xBE, 0xEF, 0x90, 0x00])
        #expect(!front.lastCommandWroteMemory)
        #expect(front.send("FF D6 00 05 08 01 02 03 04 05 06 07 08") == [0x67, 0x00], "one page only")
        #expect(front.send("FF D6 00 05 03 01 02 03") == [0x67, 0x00])
        #expect(front.send("FF D6 01 05 04 01 02 03 04") == [0x6A, 0x82])
        #expect(!front.lastCommandWroteMemory)
        #expect(try #require(front.tag as? Type2Tag).page(5) == [0xDE, 0xAD, 0xBE, 0xEF])
    }

    @Test("Manage Session and Transparent Exchange: native frames, ACK and NAK as 4 bits, silence")
    func transparent() throws {
        var front = try S.front(.ntag216)
        #expect(front.send("FF C2 00 00 02 81 00") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(front.isInTransparentSession)
        #expect(front.send("FF C2 00 00 02 80 00") == hexBytes("C0 03 00 90 00 80 03 01 00 00 90 00"))
        // GET_VERSION
        let version = try #require(front.tag as? Type2Tag).model.versionBytes
        #expect(front.respond(to: S.transceive([0x60])) == S.exchanged(version))
        // WRITE → ACK
        #expect(
            front.respond(to: S.transceive([0xA2, 0x06, 1, 2, 3, 4])) == hexBytes("C0 03 00 90 00 92 01 04 96 02 00 00 97 01 0A 90 00"))
        #expect(front.lastCommandWroteMemory)
        // A timer object first is accepted.
        #expect(
            front.send("FF C2 00 01 0B 5F 46 04 40 42 0F 00 95 02 30 06") == S.exchanged([1, 2, 3, 4] + Array(repeating: 0, count: 12)))
        // WRITE to a read-only page → NAK 0, then the tag is mute until reactivated.
        #expect(
            front.respond(to: S.transceive([0xA2, 0x00, 0, 0, 0, 0])) == hexBytes("C0 03 00 90 00 92 01 04 96 02 00 00 97 01 00 90 00"))
        #expect(front.respond(to: S.transceive([0x30, 0x04])) == hexBytes("C0 03 01 64 01 90 00"))
        // RF off and on: the tag is activated again.
        #expect(front.send("FF C2 00 00 04 83 00 84 00") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(S.sw(front.respond(to: S.transceive([0x30, 0x04]))) == [0x90, 0x00])
        #expect(front.send("FF C2 00 00 02 83 00") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(front.respond(to: S.transceive([0x30, 0x04])) == hexBytes("C0 03 01 64 01 90 00"), "no field, no answer")
        #expect(front.send("FF C2 00 00 02 84 00") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(front.send("FF C2 00 00 02 82 00") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(!front.isInTransparentSession)
    }

    @Test("A long answer has a two-byte BER length: FAST_READ of all 924 bytes")
    func longAnswer() throws {
        var front = try S.front(.ntag216)
        let response = front.respond(to: S.transceive([0x3A, 0x00, 0xE6]))
        #expect(Array(response.prefix(13)) == hexBytes("C0 03 00 90 00 96 02 00 00 97 82 03 9C"))
        #expect(response.count == 13 + 924 + 2)
        #expect(S.sw(response) == [0x90, 0x00])
    }

    @Test("Data-object errors: unknown objects, wrong lengths, unparseable TLV, other P1 P2")
    func sessionErrors() throws {
        var front = try S.front(.ntag216)
        #expect(front.send("FF C2 00 00 02 99 00") == hexBytes("C0 03 01 6A 81 90 00"))
        #expect(front.send("FF C2 00 00 05 81 00 81 01 00") == hexBytes("C0 03 02 67 00 90 00"))
        #expect(front.send("FF C2 00 01 04 5F 46 01 00") == hexBytes("C0 03 01 67 00 90 00"))
        #expect(front.send("FF C2 00 01 02 95 00") == hexBytes("C0 03 01 67 00 90 00"), "an empty frame")
        #expect(front.send("FF C2 00 01 02 93 00") == hexBytes("C0 03 01 6A 81 90 00"))
        #expect(front.send("FF C2 00 00 02 81 05") == [0x67, 0x00], "length past the end")
        #expect(front.send("FF C2 00 00 01 5F") == [0x67, 0x00], "a two-byte tag cut short")
        #expect(front.send("FF C2 00 00 03 95 83 00") == [0x67, 0x00], "a three-byte length form")
        #expect(front.send("FF C2 00 00") == [0x67, 0x00], "no data")
        #expect(front.send("FF C2 00 02 02 81 00") == [0x6A, 0x81], "Switch Protocol")
        #expect(front.send("FF C2 00 03 02 81 00") == [0x6B, 0x00])
        #expect(front.send("FF C2 01 00 02 81 00") == [0x6B, 0x00])
    }

    @Test("A basic reader has no FF C2")
    func basicReader() throws {
        var front = try S.front(.ntag216, basicReader: true)
        #expect(front.send("FF C2 00 00 02 81 00") == [0x6A, 0x81])
        #expect(front.respond(to: S.transceive([0x30, 0x04])) == [0x6A, 0x81])
        #expect(S.sw(front.send("FF B0 00 04 00")) == [0x90, 0x00])
    }

    @Test("Other classes and instructions")
    func otherClasses() throws {
        var front = try S.front(.ntag216)
        #expect(front.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x6E, 0x00])
        #expect(front.send("FF 00 00 00 00") == [0x68, 0x00])
        #expect(front.send("FF A4 00 00 02 3F 00") == [0x68, 0x00])
    }

    @Test("Power on activates the tag; power off ends the session; an APDU powers a cold slot")
    func power() throws {
        var front = EmulatedReaderFront(tag: try VirtualTagKind.ntag216.make())
        #expect(!front.isPowered)
        #expect(S.sw(front.send("FF B0 00 04 00")) == [0x90, 0x00])
        #expect(front.isPowered && front.isFieldOn)
        _ = front.send("FF C2 00 00 02 81 00")
        front.powerOff()
        #expect(!front.isPowered && !front.isFieldOn && !front.isInTransparentSession)
        front.powerOn()
        #expect(try #require(front.tag as? Type2Tag).state == .active)
    }
}
