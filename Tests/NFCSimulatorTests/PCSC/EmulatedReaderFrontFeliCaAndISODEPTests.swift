import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// FeliCa through Transparent Exchange only; ISO-DEP cards get their APDUs unchanged.
@Suite("Emulated reader: FeliCa and ISO-DEP")
struct EmulatedReaderFrontFeliCaAndISODEPTests {
    typealias S = PCSCTestSupport

    @Test("FeliCa Lite-S: IDm by GET DATA, Read Without Encryption through a transparent exchange")
    func feliCaLiteS() throws {
        var front = try S.front(.felicaLiteS)
        let idm = front.tag.identifier
        #expect(idm == FeliCaLiteSTag.defaultIDm)
        #expect(front.send("FF CA 00 00 00") == idm + [0x90, 0x00])
        #expect(front.send("FF B0 00 00 00") == [0x6A, 0x81], "FeliCa needs the transparent exchange")
        #expect(front.send("FF D6 00 00 10 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00") == [0x6A, 0x81])
        #expect(front.send("FF C2 00 00 02 81 00") == hexBytes("C0 03 00 90 00 90 00"))
        // Read Without Encryption: service 000B (read-only), block 0 (the attribute block of a
        // formatted tag) and block 0x88 (MC).
        let read: [UInt8] = [0x06] + idm + [0x01, 0x0B, 0x00, 0x02, 0x80, 0x00, 0x80, 0x88]
        var copy = try #require(front.tag as? FeliCaLiteSTag)
        let expected = try #require(copy.respond(to: read, context: ExchangeContext()).transceivedBytes)
        #expect(expected.count == 1 + 8 + 2 + 1 + 32)
        #expect(Array(expected.prefix(12)) == [0x07] + idm + [0x00, 0x00, 0x02])
        // FeliCa frames carry their LEN byte both ways, as on the air.
        #expect(front.respond(to: S.transceive(S.withLength(read))) == S.exchanged(S.withLength(expected)))
        // Polling for the Lite-S system code, as the driver does.
        let polling = front.send("FF C2 00 01 08 95 06 06 00 88 B4 01 00")
        #expect(Array(polling.prefix(12)) == hexBytes("C0 03 00 90 00 96 02 00 00 97 14 14"), "LEN, 01, IDm, PMm, system code")
        #expect(polling[12] == 0x01 && Array(polling[13..<21]) == idm)
        // Another IDm: the card stays silent.
        let other: [UInt8] = [0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        #expect(front.respond(to: S.transceive(S.withLength(other))) == hexBytes("C0 03 01 64 01 90 00"))
        // A LEN that disagrees with the frame, or no LEN at all: no answer.
        #expect(front.respond(to: S.transceive([0x07] + S.withLength(read).dropFirst())) == hexBytes("C0 03 01 64 01 90 00"))
        #expect(front.respond(to: S.transceive(read)) == hexBytes("C0 03 01 64 01 90 00"))
        #expect(front.respond(to: S.transceive([0x01])) == hexBytes("C0 03 01 64 01 90 00"))
    }

    @Test("FeliCa Lite-S: Write Without Encryption through the exchange is reported as a write")
    func feliCaLiteSWrite() throws {
        var front = try S.front(.felicaLiteS)
        let idm = front.tag.identifier
        let data = [UInt8](repeating: 0x42, count: 16)
        // Service 0009 (read-write), block 1.
        let write: [UInt8] = [0x08] + idm + [0x01, 0x09, 0x00, 0x01, 0x80, 0x01] + data
        #expect(front.respond(to: S.transceive(S.withLength(write))) == S.exchanged(S.withLength([0x09] + idm + [0x00, 0x00])))
        #expect(front.lastCommandWroteMemory)
        let read: [UInt8] = [0x06] + idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x01]
        #expect(front.respond(to: S.transceive(S.withLength(read))) == S.exchanged(S.withLength([0x07] + idm + [0x00, 0x00, 0x01] + data)))
        #expect(!front.lastCommandWroteMemory)
    }

    @Test("Type 4: SELECT of the NDEF application and the CC file pass through")
    func type4() throws {
        var front = try S.front(.type4)
        #expect(front.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x90, 0x00])
        #expect(front.send("00 A4 00 0C 02 E1 03") == [0x90, 0x00])
        let cc = front.send("00 B0 00 00 0F")
        #expect(S.sw(cc) == [0x90, 0x00])
        #expect(Array(cc.prefix(3)) == [0x00, 0x0F, 0x20])
        #expect(front.send("00 A4 04 00 07 D2 76 00 00 85 01 02 00") == [0x6A, 0x82], "the card's own answer")
        #expect(front.commandCount == 4)
    }

    @Test("Type 4: an NDEF write passes through and is reported")
    func type4Write() throws {
        var front = try S.front(.type4)
        #expect(front.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == [0x90, 0x00])
        #expect(front.send("00 A4 00 0C 02 E1 04") == [0x90, 0x00])
        #expect(front.send("00 D6 00 00 02 00 03") == [0x90, 0x00])
        #expect(front.lastCommandWroteMemory)
        #expect(front.send("00 B0 00 00 02") == [0x00, 0x03, 0x90, 0x00])
        #expect(!front.lastCommandWroteMemory)
    }

    @Test("ISO-DEP: GET DATA answers UID and ATS historical bytes; FF B0 is not for ISO-DEP cards")
    func isoDEPPseudo() throws {
        var front = try S.front(.iso7816)
        #expect(front.send("FF CA 00 00 00") == ISO7816Card.defaultUID + [0x90, 0x00])
        #expect(front.send("FF CA 01 00 00") == [0x80, 0x90, 0x00])
        #expect(front.send("FF B0 00 00 00") == [0x6A, 0x81])
        #expect(front.send("FF D6 00 00 01 00") == [0x6A, 0x81])
        #expect(front.send("FF 00 00 00") == [0x68, 0x00])
        // A transparent exchange carries an APDU to an ISO-DEP card, as transceive does.
        let apdu = hexBytes("00 A4 04 00 02 A0 00 00")
        var copy = try #require(front.tag as? ISO7816Card)
        let expected = try #require(copy.respond(to: apdu, context: ExchangeContext()).transceivedBytes)
        #expect(front.respond(to: S.transceive(apdu)) == S.exchanged(expected))
    }

    @Test("ISO-DEP Type B: APDUs pass to the card; GET DATA gives the PUPI")
    func typeB() {
        var front = EmulatedReaderFront(tag: TypeBProbe(applicationData: [1, 2, 3, 4], protocolInfo: [0x81, 0x71, 0x85]))
        #expect(front.send("00 A4 04 00 00") == [0x90, 0x00])
        #expect(front.send("FF CA 00 00 00") == [1, 2, 3, 4, 0x90, 0x00])
        #expect(front.send("FF CA 01 00 00") == [0x6A, 0x81])
    }
}
