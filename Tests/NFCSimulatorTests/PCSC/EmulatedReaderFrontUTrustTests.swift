import NFCSimulator
import NFCTestSupport
import Testing

/// The emulated Identiv uTrust 3700 F against Identiv's *Reference Manual for the CLOUD 370x F*
/// v1.0 (sections in each test).
@Suite struct EmulatedReaderFrontUTrustTests {
    typealias S = PCSCTestSupport

    @Test("§6.2.1: Read Binary answers one 4-byte Ultralight page whatever Le asks")
    func readBinaryAnswersOnePage() throws {
        var front = try S.front(.ntag216, profile: .utrust3700f)
        #expect(front.send("FF D6 00 10 04 01 02 03 04") == [0x90, 0x00])
        #expect(front.send("FF B0 00 10 10") == [0x01, 0x02, 0x03, 0x04, 0x90, 0x00], "asked for 16, answers 4")
        #expect(front.send("FF B0 00 10 04") == [0x01, 0x02, 0x03, 0x04, 0x90, 0x00])
        #expect(front.send("FF B0 00 FF 04") == [0x6A, 0x82], "block does not exist")
        #expect(front.send("FF D6 00 FF 04 01 02 03 04") == [0x69, 0x82], "a page the tag refuses")
        #expect(front.send("FF D6 00 10 10 " + String(repeating: "00 ", count: 16)) == [0x67, 0x00])
    }

    @Test("no transparent session, no other class-FF instruction (6A 81), no ISO/IEC 15693 tag seen")
    func omissions() throws {
        var front = try S.front(.ntag216, profile: .utrust3700f)
        #expect(front.send("FF C2 00 00 02 81 00") == [0x6A, 0x81])
        #expect(front.send("FF 00 48 00 00") == [0x6A, 0x81])
        #expect(!EmulatedReaderProfile.utrust3700f.sees(try VirtualTagKind.slix2.make()))
        #expect(EmulatedReaderProfile.omnikey5022.sees(try VirtualTagKind.slix2.make()))
    }

    @Test("§6.2.13: FF 40 Polling answers IDm, PMm and the system code for request code 01")
    func polling() throws {
        var front = try S.front(.felicaLiteS, profile: .utrust3700f)
        let answer = front.send("FF 40 00 00 04 FF FF 01 00")
        #expect(S.sw(answer) == [0x90, 0x00])
        #expect(S.data(answer).count == 18)
        #expect(Array(S.data(answer).prefix(8)) == front.tag.identifier)
        #expect(front.send("FF 40 01 00 04 FF FF 01 00") == [0x6B, 0x00])
        #expect(front.send("FF 40 00 00 03 FF FF 01") == [0x67, 0x00])
    }

    @Test("§6.2.17–6.2.18: FF 48 writes a block and FF 46 reads it back, IDm and status flags first")
    func readAndWriteWithoutEncryption() throws {
        var front = try S.front(.felicaLiteS, profile: .utrust3700f)
        let idm = front.tag.identifier
        let block = [UInt8](0..<16)
        // Service 0009 (read/write, Lite-S), one block: element 80 01.
        let write = hexBytes("FF 48 01 01 14 09 00 80 01") + block
        #expect(front.respond(to: write) == idm + [0x00, 0x00, 0x90, 0x00])
        let read = front.send("FF 46 01 01 04 0B 00 80 01 00")
        #expect(read == idm + [0x00, 0x00, 0x01] + block + [0x90, 0x00])
        #expect(front.send("FF 46 01 01 05 0B 00 80 01 00 00") == [0x67, 0x00], "Lc must be 2·(P1 + P2)")
        #expect(front.send("FF 46 00 01 02 80 01 00") == [0x6B, 0x00], "no service")
    }

    @Test("§6.2.14–6.2.16: FF 42 Request Service, FF 44 Request Response, FF 4A Request System Code")
    func otherFeliCaCommands() throws {
        var front = try S.front(.felica, profile: .utrust3700f)
        let idm = front.tag.identifier
        let service = front.send("FF 42 01 00 02 0B 00")
        #expect(Array(service.prefix(8)) == idm && S.sw(service) == [0x90, 0x00] && service[8] == 0x01)
        let mode = front.send("FF 44 00 00 00")
        #expect(mode.count == 11 && Array(mode.prefix(8)) == idm)
        let codes = front.send("FF 4A 00 00 00")
        #expect(Array(codes.prefix(8)) == idm && S.sw(codes) == [0x90, 0x00])
    }

    @Test("FeliCa commands to a card that is not FeliCa: 6A 81")
    func feliCaCommandToAnotherCard() throws {
        var front = try S.front(.ntag216, profile: .utrust3700f)
        #expect(front.send("FF 4A 00 00 00") == [0x6A, 0x81])
    }
}
