import NFCSimulator
import NFCTestSupport
import Testing

/// The emulated ACR1252U and ACR1552U against ACS's *ACM1252U-Y3 Reference Manual* v1.03
/// (sections in each test) and published ACR1552U traces.
@Suite struct EmulatedReaderFrontACSTests {
    typealias S = PCSCTestSupport

    @Test(
        "§5.2.3: a transparent session starts (C0 03 00 90 00) and carries a native READ",
        arguments: [EmulatedReaderProfile.acr1252u, .acr1552u])
    func transparentSession(profile: EmulatedReaderProfile) throws {
        var front = try S.front(.ntag216, profile: profile)
        #expect(front.send("FF C2 00 00 02 81 00") == hexBytes("C0 03 00 90 00 90 00"))
        let answer = front.respond(to: S.transceive([0x30, 0x04]))
        #expect(answer.starts(with: hexBytes("C0 03 00 90 00 96 02 00 00 97 10")) && S.sw(answer) == [0x90, 0x00])
        #expect(front.send("FF C2 00 00 02 82 00") == hexBytes("C0 03 00 90 00 90 00"))
    }

    @Test("§5.2.3: Switch Protocol to the card's own standard reactivates it; another finds no card; 15693 only on the ACR1552U")
    func switchProtocol() throws {
        var ntag = try S.front(.ntag216, profile: .acr1252u)
        #expect(ntag.send("FF C2 00 02 04 8F 02 00 03") == hexBytes("C0 03 00 90 00 90 00"))
        #expect(ntag.send("FF C2 00 02 04 8F 02 03 02") == hexBytes("C0 03 01 64 01 90 00"), "FeliCa: no card")
        #expect(ntag.send("FF C2 00 02 04 8F 02 02 03") == hexBytes("C0 03 01 6A 81 90 00"), "no ISO/IEC 15693 on the ACR1252U")
        #expect(ntag.send("FF C2 00 02 03 8F 01 00") == hexBytes("C0 03 01 67 00 90 00"))
        var slix = try S.front(.slix2, profile: .acr1552u)
        #expect(slix.send("FF C2 00 02 04 8F 02 02 03") == hexBytes("C0 03 00 90 00 90 00"))
    }

    @Test("§5.2.4.3–5.2.4.4: Read Binary Le a multiple of 4 up to 16, Update Binary one page; failures are 63 00")
    func storageCommands() throws {
        var front = try S.front(.ntag216, profile: .acr1252u)
        #expect(front.send("FF D6 00 10 04 01 02 03 04") == [0x90, 0x00])
        #expect(front.send("FF B0 00 10 04") == [0x01, 0x02, 0x03, 0x04, 0x90, 0x00])
        #expect(S.data(front.send("FF B0 00 10 10")).count == 16)
        #expect(front.send("FF B0 00 10 06") == [0x63, 0x00], "not a multiple of 4")
        #expect(front.send("FF B0 00 10 14") == [0x63, 0x00], "more than 16")
        #expect(front.send("FF B0 00 FF 10") == [0x63, 0x00], "the tag refuses")
        #expect(front.send("FF D6 00 10 03 01 02 03") == [0x63, 0x00])
        #expect(front.send("FF CA 00 00 00") == front.tag.identifier + [0x90, 0x00])
        #expect(front.send("FF CA 07 00 00") == [0x63, 0x00])
        #expect(front.send("FF 00 48 00 00") == [0x6A, 0x81], "not an ACR122U")
    }

    @Test("the ACR1552U reads and writes ISO/IEC 15693 blocks; the ACR1252U does not see such a tag")
    func iso15693() throws {
        var front = try S.front(.slix2, profile: .acr1552u)
        #expect(front.send("FF D6 00 05 04 0A 0B 0C 0D") == [0x90, 0x00])
        #expect(front.send("FF B0 00 05 04") == [0x0A, 0x0B, 0x0C, 0x0D, 0x90, 0x00])
        #expect(!EmulatedReaderProfile.acr1252u.sees(try VirtualTagKind.slix2.make()))
        #expect(EmulatedReaderProfile.acr1552u.sees(try VirtualTagKind.slix2.make()))
    }

    @Test(
        "ISO-DEP: APDUs up to 512 (ACR1252U) and 506 (ACR1552U) bytes",
        arguments: [(EmulatedReaderProfile.acr1252u, 512), (.acr1552u, 506)])
    func apduLimit(profile: EmulatedReaderProfile, limit: Int) throws {
        // A security key: a card that takes extended APDUs of any length.
        var front = try S.front(.securityKey, profile: profile)
        // An extended command of a proprietary class the card refuses with its own word (not
        // 67 00): header, 00, Lc in two bytes, data.
        func update(_ count: Int) -> [UInt8] {
            [0x80, 0x01, 0x00, 0x00, 0x00, UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 0, count: count)
        }
        #expect(front.respond(to: update(limit - 7)) != [0x67, 0x00], "the longest APDU reaches the card")
        #expect(front.respond(to: update(limit - 6)) == [0x67, 0x00], "one byte more is refused by the reader")
    }
}
