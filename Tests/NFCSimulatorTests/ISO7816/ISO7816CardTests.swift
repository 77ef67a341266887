import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

/// ISO/IEC 7816-4:2013 host behaviour of ``ISO7816Card`` with a plugged-in test applet.
@Suite("ISO7816 card host")
struct ISO7816CardTests {
    static let aidA: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27, 0x21, 0x01]
    static let aidB: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27, 0x20, 0x01]
    static let aidC: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x08]

    func makeCard(_ configuration: ISO7816Card.Configuration = .init()) -> ISO7816Card {
        ISO7816Card(
            configuration: configuration,
            applets: [
                ISO7816TestApplet(aid: Self.aidA), ISO7816TestApplet(aid: Self.aidB), ISO7816TestApplet(aid: Self.aidC),
            ])
    }

    func send(_ card: inout ISO7816Card, _ hex: String) throws -> [UInt8] {
        let answer = card.respond(to: try [UInt8](hex: hex), context: ExchangeContext())
        return answer.transceivedBytes ?? []
    }

    func select(_ aid: [UInt8], p2: UInt8 = 0x00) -> String {
        Hex.encode([0x00, 0xA4, 0x04, p2, UInt8(aid.count)] + aid)
    }

    @Test("SELECT by full AID selects that applet and returns its answer")
    func selectFullAID() throws {
        var card = makeCard()
        #expect(try send(&card, select(Self.aidB)) == [0x6F, 0x02, 0x84, 0x00, 0x90, 0x00])
        #expect(card.selectedAID == Self.aidB)
        #expect(card.applets[1].aid == Self.aidB)
        #expect((card.applets[1] as? ISO7816TestApplet)?.selectCount == 1)
    }

    @Test("SELECT of an unknown AID answers 6A82 and keeps the current selection")
    func selectUnknown() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidC))
        #expect(try send(&card, "00A4040005A000000999") == [0x6A, 0x82])
        #expect(card.selectedAID == Self.aidC)
        #expect(try send(&card, "00A4040011" + String(repeating: "A0", count: 17)) == [0x6A, 0x82])
    }

    @Test("a right-truncated AID selects the first match; P2 01/02/03 pick last, next, previous")
    func partialAndOccurrences() throws {
        var card = makeCard()
        let prefix: [UInt8] = [0xA0, 0x00, 0x00, 0x05, 0x27]
        _ = try send(&card, select(prefix))
        #expect(card.selectedAID == Self.aidA)
        _ = try send(&card, select(prefix, p2: 0x02))  // next
        #expect(card.selectedAID == Self.aidB)
        #expect(try send(&card, select(prefix, p2: 0x02)) == [0x6A, 0x82])  // no further match
        #expect(card.selectedAID == Self.aidB)
        _ = try send(&card, select(prefix, p2: 0x03))  // previous
        #expect(card.selectedAID == Self.aidA)
        _ = try send(&card, select([0xA0], p2: 0x01))  // last
        #expect(card.selectedAID == Self.aidC)
        #expect(try send(&card, select(prefix, p2: 0x0C)).suffix(2) == [0x90, 0x00])
        #expect(try send(&card, select(prefix, p2: 0x10)) == [0x6A, 0x86])
    }

    @Test("selecting another applet deselects the first; an applet may refuse selection")
    func deselectAndRefusal() throws {
        var card = ISO7816Card(applets: [
            ISO7816TestApplet(aid: Self.aidA),
            {
                var refusing = ISO7816TestApplet(aid: Self.aidB)
                refusing.selectStatus = .appletSelectionFailed
                return refusing
            }(),
        ])
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, select(Self.aidB)).suffix(2) == [0x69, 0x99])
        #expect(card.selectedAID == nil)
        #expect((card.applets[0] as? ISO7816TestApplet)?.deselectCount == 1)
    }

    @Test("with no applet selected the MF answers: 6986 for file commands, 6A82, 6D00, 6E00")
    func masterFile() throws {
        var card = makeCard()
        #expect(try send(&card, "00B0000010") == [0x69, 0x86])
        #expect(try send(&card, "00D6000001FF") == [0x69, 0x86])
        #expect(try send(&card, "00A4000C02E103") == [0x6A, 0x82])
        #expect(try send(&card, "00A4000C023F00") == [0x90, 0x00])
        #expect(try send(&card, "00A40000") == [0x90, 0x00])
        #expect(try send(&card, "00A47700") == [0x6A, 0x86])
        #expect(try send(&card, "0001000000") == [0x6D, 0x00])
        #expect(try send(&card, "8001000000") == [0x6E, 0x00])
        // Selecting the MF leaves the applet.
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "00A4000C023F00") == [0x90, 0x00])
        #expect(card.selectedAID == nil)
    }

    @Test("class and instruction errors: 6E00, 6881, 6882, 6D00")
    func classAndInstructionErrors() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "FFA4040000") == [0x6E, 0x00])  // CLA FF: reserved for PPS
        #expect(try send(&card, "20A4040000") == [0x6E, 0x00])  // RFU class
        #expect(try send(&card, "01B0000010") == [0x68, 0x81])  // logical channel 1
        #expect(try send(&card, "0CB0000010") == [0x68, 0x82])  // secure messaging
        #expect(try send(&card, "00700000") == [0x68, 0x81])  // MANAGE CHANNEL
        #expect(try send(&card, "00600000") == [0x6D, 0x00])  // INS 6X invalid
        #expect(try send(&card, "00920000") == [0x6D, 0x00])  // INS 9X invalid
        #expect(try send(&card, "00EE0000") == [0x6D, 0x00])  // unknown to the applet
        #expect(try send(&card, "8001000002ABCD") == [0xAB, 0xCD, 0x90, 0x00])  // proprietary class reaches the applet
        #expect(try send(&card, "8002000000") == [0x6E, 0x00])
    }

    @Test("malformed APDUs and extended APDUs on a short-only card answer 6700")
    func wrongLength() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "") == [0x67, 0x00])
        #expect(try send(&card, "00A404") == [0x67, 0x00])
        #expect(try send(&card, "0001000005AABB") == [0x67, 0x00])
        #expect(try send(&card, "00010000000002AABB") == [0x67, 0x00])  // extended, not supported
        var extended = makeCard(.init(extendedLength: true))
        _ = try send(&extended, select(Self.aidA))
        #expect(try send(&extended, "00010000000002AABB") == [0xAA, 0xBB, 0x90, 0x00])
    }

    @Test("response data is cut to Ne; Le 00 means 256 and extended 0000 means 65 536")
    func leTruncation() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "0002001010") == (0..<16).map { UInt8($0) } + [0x90, 0x00])
        #expect(try send(&card, "0002001004").count == 6)
        // 256 bytes with Le 00 fit one short response exactly.
        #expect(try send(&card, "0002010000").count == 258)
        // 300 with Le 00: 256 now, the rest behind 61xx (ISO/IEC 7816-4 §5.6).
        let long = try send(&card, "0002012C00")
        #expect(long.count == 258 && long.suffix(2) == [0x61, 0x2C])
        var extended = makeCard(.init(extendedLength: true))
        _ = try send(&extended, select(Self.aidA))
        #expect(try send(&extended, "00024000000000").count == 0x4000 + 2)
        #expect(try send(&extended, "00024000000100").count == 256 + 2)
    }

    @Test("6Cxx from an applet tells the exact Le")
    func wrongLe() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "0003000010") == [0x6C, 0x04])
        #expect(try send(&card, "0003000004") == [0xCA, 0xFE, 0xBA, 0xBE, 0x90, 0x00])
    }

    @Test("an answer larger than the card's buffer comes in parts with 61xx and GET RESPONSE")
    func getResponse() throws {
        var card = makeCard(.init(maxResponseDataLength: 100))
        _ = try send(&card, select(Self.aidA))
        let first = try send(&card, "0002012C00")  // 300 bytes, short Le 00: all of them, by parts
        #expect(first.count == 102)
        #expect(first.suffix(2) == [0x61, 0xC8])  // 200 left
        let second = try send(&card, "00C0000000")
        #expect(second.count == 102 && second.suffix(2) == [0x61, 0x64])
        #expect(second.first == 100)
        let third = try send(&card, "00C0000000")
        #expect(third.count == 102 && third.suffix(2) == [0x90, 0x00])
        // A short Le other than 00 still cuts the answer.
        let cut = try send(&card, "0002012C50")
        #expect(cut.count == 0x50 + 2 && cut.suffix(2) == [0x90, 0x00])
        #expect(try send(&card, "00C0000000") == [0x69, 0x85])
        // Another command drops what was pending.
        _ = try send(&card, "0002012C00")
        _ = try send(&card, "0002000100")
        #expect(try send(&card, "00C0000000") == [0x69, 0x85])
        _ = try send(&card, "0002012C00")
        #expect(try send(&card, "00C0010000") == [0x6A, 0x86])
    }

    @Test("command chaining gathers the data; a broken chain answers 6883")
    func commandChaining() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        #expect(try send(&card, "1001000002AABB") == [0x90, 0x00])
        #expect(try send(&card, "1001000002CCDD") == [0x90, 0x00])
        #expect(try send(&card, "0001000001EE00") == [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x90, 0x00])
        #expect(try send(&card, "1001000002AABB") == [0x90, 0x00])
        #expect(try send(&card, "0002000010") == [0x68, 0x83])
        #expect(try send(&card, "0001000001EE00") == [0xEE, 0x90, 0x00])
    }

    @Test("processing time and memory writes reach the field's TagAnswer; frames follow ISO-DEP")
    func tagAnswer() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        let answer = card.respond(to: [0x00, 0x04, 0x00, 0x00], context: ExchangeContext())
        #expect(answer.processingTime == .microseconds(3_500))
        #expect(answer.writesMemory)
        #expect(answer.frames == [AirFrame(reader: .bytes(5), tag: .bytes(3), processing: .microseconds(3_500))])
        let read = card.respond(to: [0x00, 0x02, 0x01, 0x00, 0x00], context: ExchangeContext(readerFrameSize: 64))
        #expect(read.frames?.count == 5)  // 258 bytes in blocks of 61
        #expect(!read.writesMemory)
    }

    @Test("power-up resets the selection and calls each applet's reset")
    func powerOn() throws {
        var card = makeCard()
        _ = try send(&card, select(Self.aidA))
        card.powerOn()
        #expect(card.selectedAID == nil)
        #expect((card.applets[0] as? ISO7816TestApplet)?.resetCount == 1)
        #expect(try send(&card, "0001000001AA") == [0x6D, 0x00])
    }

    @Test("through the field: ATQA 0344, SAK 20, the ATS, and the ATS")
    func throughField() async throws {
        let harness = try await FieldHarness(makeCard())
        guard case .iso14443A(let a) = harness.connection.target.parameters else {
            Issue.record("not Type A")
            return
        }
        #expect(a.atqa == 0x0344)
        #expect(a.sak == 0x20)
        #expect(a.ats?.bytes == [0x06, 0x77, 0x77, 0x71, 0x02, 0x80])
        #expect(harness.connection.target.speaksISODEP)
        #expect(harness.connection.bitRate == .kbps848)
        #expect(harness.connection.target.identifier == ISO7816Card.defaultUID)

        let response = try await harness.send(try [UInt8](hex: select(Self.aidA)))
        #expect(response.suffix(2) == [0x90, 0x00])
        let stats = harness.meter.statistics
        #expect(stats.commands == 1)
        #expect(stats.bytesSent == 12 && stats.bytesReceived == 6)

        // Reactivation resets the selection (RATS starts a new ISO-DEP session).
        try await harness.connection.reactivate()
        #expect(try await harness.send([0x00, 0x01, 0x00, 0x00, 0x01, 0xAA]) == [0x6D, 0x00])
    }

    @Test("activation frames: WUPA, two cascade SELECTs, RATS with SFGT, PPS ≈ 5.7 ms")
    func activationFrames() throws {
        var card = makeCard()
        // The field agreed 848 kbit/s: PPS follows the ATS.
        let frames = card.activate(context: ExchangeContext(bitRate: .kbps848))
        try #require(frames.count == 5)
        #expect(frames[3].tag == .bytes(6))
        #expect(frames[4] == AirFrame(reader: .bytes(3), tag: .bytes(1)))
        let time = AirTimeModel.duration(of: frames, technology: .iso14443A, bitRate: .kbps106)
        #expect(time > .microseconds(5_500) && time < .microseconds(5_850))
        // At 106 kbit/s (a reader or card without higher rates) there is no PPS.
        #expect(card.activate(context: ExchangeContext(bitRate: .kbps106)).count == 4)
    }
}
