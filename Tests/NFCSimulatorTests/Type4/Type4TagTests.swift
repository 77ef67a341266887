import NFCBytes
import NFCSimulator
import NFCTransport
import Testing

/// NFC Forum Type 4 Tag Operation 2.0 §5.4 and Annex C procedures as raw APDUs, and every error the NDEF application answers.
@Suite("Type4 tag commands")
struct Type4TagTests {
    static let message: [UInt8] = [0xD1, 0x01, 0x04, 0x55, 0x03, 0x61, 0x2E, 0x62]  // URI "http://a.b"

    func send(_ tag: inout Type4Tag, _ hex: String) throws -> [UInt8] {
        tag.respond(to: try [UInt8](hex: hex), context: ExchangeContext()).transceivedBytes ?? []
    }

    func hex(_ text: String) throws -> [UInt8] { try [UInt8](hex: text) }

    @Test("NDEF detection: SELECT app, SELECT CC, READ CC, SELECT NDEF, READ NLEN, READ message")
    func detectionProcedure() throws {
        var tag = try Type4Tag(message: Self.message)
        #expect(try send(&tag, "00A4040007D276000085010100") == hex("9000"))
        #expect(try send(&tag, "00A4000C02E103") == hex("9000"))
        #expect(try send(&tag, "00B000000F") == hex("000F 20 00FF 00FF 0406 E104 0800 00 00 9000"))
        #expect(try send(&tag, "00A4000C02E104") == hex("9000"))
        #expect(try send(&tag, "00B0000002") == hex("0008 9000"))
        #expect(try send(&tag, "00B0000208") == Self.message + [0x90, 0x00])
        #expect(tag.ndefMessage == Self.message)
    }

    @Test("mapping 1.0 readers select with P2 00 and work the same")
    func selectWithP2Zero() throws {
        var tag = try Type4Tag(message: Self.message)
        #expect(try send(&tag, "00A4040C07D2760000850101") == hex("9000"))
        #expect(try send(&tag, "00A4000002E103") == hex("9000"))
        #expect(try send(&tag, "00B0000002") == hex("000F9000"))
        #expect(try send(&tag, "00A4040007D2760000850100") == hex("6A82"))  // the version 1.0 AID is absent
    }

    @Test("NDEF update: NLEN 0000, the message, then NLEN — each an EEPROM write")
    func writeProcedure() throws {
        var tag = try Type4Tag.blank()
        #expect(tag.ndefMessage == [])
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E104")
        let steps = ["00D60000020000", "00D6000208" + Hex.encode(Self.message), "00D60000020008"]
        for step in steps {
            let answer = tag.respond(to: try hex(step), context: ExchangeContext())
            #expect(answer.transceivedBytes == [0x90, 0x00])
            #expect(answer.writesMemory)
            #expect(answer.processingTime == .microseconds(3_500))  // 0.5 ms + 2 ms + one 32-byte page
        }
        #expect(tag.ndefMessage == Self.message)
        #expect(try send(&tag, "00B0000000").prefix(10) == [0x00, 0x08] + Self.message)
    }

    @Test("programming time grows with the pages a write touches")
    func programmingTime() throws {
        var tag = try Type4Tag.blank()
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E104")
        let answer = tag.respond(to: try hex("00D6001EFF" + String(repeating: "AB", count: 255)), context: ExchangeContext())
        #expect(answer.transceivedBytes == [0x90, 0x00])
        // Bytes 30–284 touch pages 0–8: 0.5 + 2 + 9 ms.
        #expect(answer.processingTime == .microseconds(11_500))
    }

    @Test("file selection errors: 6A82, 6700, 6A86; commands need a current EF (6986)")
    func selectErrors() throws {
        var tag = try Type4Tag(message: Self.message)
        _ = try send(&tag, "00A4040007D2760000850101")
        #expect(try send(&tag, "00B0000002") == hex("6986"))
        #expect(try send(&tag, "00D60000020000") == hex("6986"))
        #expect(try send(&tag, "00A4000C02E105") == hex("6A82"))
        #expect(try send(&tag, "00A4000C01E1") == hex("6700"))
        #expect(try send(&tag, "00A4000C03E10400") == hex("6700"))
        #expect(try send(&tag, "00A4770C02E103") == hex("6A86"))
        #expect(try send(&tag, "00A4000D02E103") == hex("6A86"))
        #expect(try send(&tag, "00A4080C02E103") == hex("6A82"))
        #expect(try send(&tag, "80B0000002") == hex("6E00"))
        #expect(try send(&tag, "00CA000000") == hex("6D00"))
        #expect(try send(&tag, "00B1000005540300000000") == hex("6D00"))  // no offset data objects before 3.0
        // A failed SELECT keeps the current EF.
        _ = try send(&tag, "00A4000C02E103")
        _ = try send(&tag, "00A4000C02E1FF")
        #expect(try send(&tag, "00B0000002") == hex("000F9000"))
    }

    @Test("READ BINARY errors: 6B00 beyond the file, 6700 without Le or with data, 6A86 for SFI, 6982 unreadable")
    func readErrors() throws {
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 64), message: Self.message)
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E104")
        #expect(try send(&tag, "00B0004001") == hex("6B00"))
        #expect(try send(&tag, "00B07FFF01") == hex("6B00"))
        #expect(try send(&tag, "00B00000") == hex("6700"))
        #expect(try send(&tag, "00B000000100") == hex("6700"))
        #expect(try send(&tag, "00B0810002") == hex("6A86"))
        // Le beyond the end: the bytes up to the end, 9000.
        #expect(try send(&tag, "00B0003C10") == hex("00000000 9000"))
        tag.card.updateApplet(NDEFApplication.self) { $0.files[1].readAccess = .never }
        #expect(try send(&tag, "00B0000002") == hex("6982"))
    }

    @Test("Le beyond MLe is cut to MLe; Le 00 reads up to 256 or the file end")
    func readLimits() throws {
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 1000, maxReadLength: 59), message: Self.message)
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E103")
        #expect(try Array(send(&tag, "00B000000F").prefix(5)) == hex("000F20003B"))
        _ = try send(&tag, "00A4000C02E104")
        #expect(try send(&tag, "00B0000000").count == 59 + 2)
        #expect(try send(&tag, "00B00000FF").count == 59 + 2)
        var roomy = try Type4Tag(configuration: .init(ndefFileSize: 1000, maxReadLength: 256))
        _ = try send(&roomy, "00A4040007D2760000850101")
        _ = try send(&roomy, "00A4000C02E104")
        #expect(try send(&roomy, "00B0000000").count == 256 + 2)
    }

    @Test("UPDATE BINARY errors: 6982 on the CC and a read-only file, 6700 beyond MLc or empty, 6B00, 6A84")
    func updateErrors() throws {
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 64, maxUpdateLength: 32))
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E103")
        #expect(try send(&tag, "00D6000E01FF") == hex("6982"))
        _ = try send(&tag, "00A4000C02E104")
        #expect(try send(&tag, "00D6000021" + String(repeating: "00", count: 33)) == hex("6700"))
        #expect(try send(&tag, "00D60000") == hex("6700"))
        #expect(try send(&tag, "00D6004001AA") == hex("6B00"))
        #expect(try send(&tag, "00D6003E03AABBCC") == hex("6A84"))
        #expect(try send(&tag, "00D6800001AA") == hex("6A86"))
        #expect(try send(&tag, "00D6003E02AABB") == hex("9000"))
        #expect(tag.ndefApplication?.file(0xE104)?.contents.suffix(2) == [0xAA, 0xBB])
    }

    @Test("a write-protected tag says FF in its CC and answers 6982 to UPDATE BINARY")
    func writeProtected() throws {
        var tag = try Type4Tag(configuration: .init(writeProtected: true), message: Self.message)
        #expect(try tag.capabilityContainer().writeAccess == 0xFF)
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E103")
        #expect(try send(&tag, "00B0000E01") == hex("FF9000"))
        _ = try send(&tag, "00A4000C02E104")
        #expect(try send(&tag, "00D60000020000") == hex("6982"))
        #expect(tag.ndefMessage == Self.message)
    }

    @Test("an extended READ BINARY reads 8 KB in one APDU when the tag takes extended lengths")
    func extendedRead() throws {
        let big = (0..<8192).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var tag = try Type4Tag(configuration: .init(ndefFileSize: 8194, extendedLength: true), message: big)
        #expect(try tag.capabilityContainer().maxReadLength == 0xFFFF)
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E104")
        let answer = try send(&tag, "00B00002002000")
        #expect(answer == big + [0x90, 0x00])
        var short = try Type4Tag(configuration: .init(ndefFileSize: 8194), message: big)
        _ = try send(&short, "00A4040007D2760000850101")
        _ = try send(&short, "00A4000C02E104")
        #expect(try send(&short, "00B00002002000") == hex("6700"))
    }

    @Test("mapping 3.0: Extended NDEF File Control TLV, ENLEN, and READ/UPDATE BINARY with offset data objects")
    func mappingThree() throws {
        let size = 40_000
        var tag = try Type4Tag(configuration: .init(ndefFileSize: size, extendedLength: true))
        let cc = try tag.capabilityContainer()
        #expect(cc.mappingVersion == 0x30 && cc.isExtended && cc.maxNDEFFileSize == size)
        _ = try send(&tag, "00A4040007D2760000850101")
        _ = try send(&tag, "00A4000C02E103")
        #expect(try send(&tag, "00B0000011") == hex("0011 30 FFFF FFFF 0608 E104 00009C40 00 00 9000"))
        _ = try send(&tag, "00A4000C02E104")
        // UPDATE BINARY D7 at offset 0x9000, then read it back with B1.
        #expect(try send(&tag, "00D700000B5403009000" + "5304" + "01020304") == hex("9000"))
        #expect(try send(&tag, "00B1000005540300900006") == hex("5304010203049000"))
        // Le 0x0100 → a 3-byte DDO header and 253 bytes.
        let long = try send(&tag, "00B1000000000554030090000100")
        #expect(Array(long.prefix(4)) == [0x53, 0x81, 0xFD, 0x01])
        #expect(long.count == 3 + 253 + 2)
        // Errors.
        #expect(try send(&tag, "00B1010005540300900006") == hex("6A86"))
        #expect(try send(&tag, "00B1000005530300900006") == hex("6A80"))
        #expect(try send(&tag, "00B1000005540300FFFF06") == hex("6B00"))
        #expect(try send(&tag, "00D700000B5403009000" + "5305" + "01020304") == hex("6A80"))
        #expect(try send(&tag, "00D70000075403009000" + "5300") == hex("6A80"))
        // ENLEN: the message length is a 4-byte field.
        try tag.setNDEFMessage(Self.message)
        #expect(try send(&tag, "00B0000004") == hex("00000008 9000"))
        #expect(tag.ndefMessage == Self.message)
    }

    @Test("configurations outside the T4T ranges are refused, naming the field")
    func configurationErrors() {
        let bad: [(String, Type4Tag.Configuration)] = [
            ("uid", .init(uid: [1, 2, 3])),
            ("mappingVersion", .init(mappingVersion: 0x10)),
            ("ndefFileSize", .init(ndefFileSize: 4)),
            ("ndefFileSize", .init(ndefFileSize: 0x8000, mappingVersion: 0x20)),
            ("maxReadLength", .init(maxReadLength: 14)),
            ("maxReadLength", .init(maxReadLength: 257)),
            ("maxUpdateLength", .init(maxUpdateLength: 256)),
            ("ndefFileID", .init(ndefFileID: 0xE103)),
            ("frameSizeCode", .init(frameSizeCode: 9)),
        ]
        for (field, configuration) in bad {
            #expect(throws: TagImageError(.invalidValue, field: field, "")) { try Type4Tag(configuration: configuration) }
            do {
                _ = try Type4Tag(configuration: configuration)
            } catch {
                #expect(error.field == field)
            }
        }
        #expect(throws: TagImageError(.invalidValue, "")) {
            try Type4Tag(configuration: .init(ndefFileSize: 10), message: [UInt8](repeating: 0, count: 9))
        }
    }

    @Test("through the field: detection over ISO-DEP, and a torn UPDATE BINARY leaves the old data")
    func throughFieldWithTear() async throws {
        let harness = try await FieldHarness(try Type4Tag(message: Self.message))
        #expect(try await harness.send(try hex("00A4040007D276000085010100")) == hex("9000"))
        #expect(try await harness.send(try hex("00A4000C02E104")) == hex("9000"))
        #expect(try await harness.send(try hex("00B0000002")) == hex("00089000"))
        await harness.field.inject(.tear(command: 1, outcome: .oldData), into: harness.id)
        await #expect(throws: TransportError(.tagLost)) { try await harness.send(try self.hex("00D60000020000")) }
        let after = await harness.tag(as: Type4Tag.self)
        #expect(after?.ndefMessage == Self.message)
    }
}
