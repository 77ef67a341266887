import NFCSimulator
import Testing

/// Hand-made Flipper dumps in the firmware's formats (version 4, and the older versions 2–3).
enum FlipperSamples {
    static func ntag213(version: Int = 4, pages: Int = 45, extra: String = "") -> String {
        var text = """
            Filetype: Flipper NFC device
            Version: \(version)
            # Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight
            Device type: \(version >= 4 ? "NTAG/Ultralight" : "NTAG213")
            # UID is common for all formats
            UID: 04 A7 8B 62 C2 1B 90
            ATQA: \(version <= 2 ? "44 00" : "00 44")
            SAK: 00
            Data format version: 2

            """
        if version >= 4 { text += "NTAG/Ultralight type: NTAG213\n" }
        text += """
            Signature: 66 0B 9E EB 2A AC BD 97 55 EA 77 69 D4 0D AC BF 71 A3 51 2A 7A AD 5B 80 3C D4 5D 2D 33 79 5F DA
            Mifare version: 00 04 04 02 01 00 0F 03
            Counter 0: 0
            Tearing 0: 00
            Counter 1: 0
            Tearing 1: 00
            Counter 2: 7
            Tearing 2: BD
            Pages total: \(pages)
            Pages read: \(pages)

            """
        // UID 04 A7 8B | 62 C2 1B 90: BCC0 = 88^04^A7^8B = A0, BCC1 = 62^C2^1B^90 = 2B.
        let fixed: [String] = [
            "04 A7 8B A0", "62 C2 1B 90", "2B 48 00 00", "E1 10 12 00", "03 0B D1 01", "07 55 01 6E", "66 63 2E 6F", "72 67 FE 00",
        ]
        for index in 0..<pages {
            let value: String
            if index < fixed.count {
                value = fixed[index]
            } else if index == 41 {
                value = "04 00 00 FF"  // CFG0: AUTH0 = FF
            } else {
                value = "00 00 00 00"
            }
            text += "Page \(index): \(value)\n"
        }
        text += "Failed authentication attempts: 0\n" + extra
        return text
    }

    static let slix2 = """
        Filetype: Flipper NFC device
        Version: 4
        Device type: ISO15693-3
        UID: E0 04 01 08 12 34 56 78
        # ISO15693-3 specific data
        DSFID: 00
        AFI: 07
        IC Reference: 01
        Lock DSFID: false
        Lock AFI: true
        Block Count: 80
        Block Size: 04
        Data Content: E1 40 28 01 03 00 FE \(Array(repeating: "00", count: 80 * 4 - 7).joined(separator: " "))
        Security Status: 01 \(Array(repeating: "00", count: 79).joined(separator: " "))

        """
}

@Suite struct FlipperParserTests {
    @Test(arguments: [2, 3, 4])
    func readsUltralightDumps(version: Int) throws {
        let dump = try FlipperDump(FlipperNFCFile(text: FlipperSamples.ntag213(version: version)))
        guard case .ultralight(let tag) = dump else {
            Issue.record("expected an Ultralight dump")
            return
        }
        #expect(tag.uid == [0x04, 0xA7, 0x8B, 0x62, 0xC2, 0x1B, 0x90])
        #expect(tag.atqa == [0x00, 0x44])
        #expect(tag.typeName == "NTAG213")
        #expect(tag.pages.count == 45)
        #expect(tag.pages[3] == [0xE1, 0x10, 0x12, 0x00])
        #expect(tag.counters == [0, 0, 7])
        #expect(tag.tearing == [0, 0, 0xBD])
        #expect(tag.signature?.count == 32)
        #expect(tag.version == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
    }

    @Test func readsISO15693Dumps() throws {
        guard case .iso15693(let tag) = try FlipperDump(FlipperNFCFile(text: FlipperSamples.slix2)) else {
            Issue.record("expected an ISO 15693 dump")
            return
        }
        #expect(tag.uid == [0xE0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x78])
        #expect(tag.afi == 0x07)
        #expect(tag.afiLocked && !tag.dsfidLocked)
        #expect(tag.blocks.count == 80)
        #expect(tag.blocks[0] == [0xE1, 0x40, 0x28, 0x01])
        #expect(tag.blockLocked[0] && !tag.blockLocked[1])
    }

    @Test func legacySecurityStatusCarriesTheLockBits() throws {
        let legacy = FlipperSamples.slix2
            .replacingOccurrences(of: "Lock DSFID: false\n", with: "")
            .replacingOccurrences(of: "Lock AFI: true\n", with: "")
            .replacingOccurrences(of: "Security Status: 01", with: "Security Status: 01 01")
        guard case .iso15693(let tag) = try FlipperDump(FlipperNFCFile(text: legacy)) else {
            Issue.record("expected an ISO 15693 dump")
            return
        }
        #expect(tag.dsfidLocked && !tag.afiLocked)
        #expect(tag.blockLocked[0])
    }

    @Test(arguments: [
        ("Filetype: Something else\nVersion: 4\n", 1),
        ("Device type: NTAG213\n", 1),
        ("Filetype: Flipper NFC device\nVersion: 9\n", 2),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\n", 3),
        ("Filetype: Flipper NFC device\nVersion: 4\nthis line has no colon\n", 3),
    ])
    func rejectsWithTheLine(text: String, line: Int) {
        do {
            _ = try FlipperDump(FlipperNFCFile(text: text))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line)
        }
    }

    @Test func rejectsAMissingPage() {
        let text = FlipperSamples.ntag213().replacingOccurrences(of: "Page 17: 00 00 00 00\n", with: "")
        #expect(throws: FlipperImportError.self) { try FlipperDump(FlipperNFCFile(text: text)) }
    }

    @Test func rejectsAShortDataContent() {
        let text = FlipperSamples.slix2.replacingOccurrences(of: "Block Count: 80", with: "Block Count: 81")
        #expect(throws: FlipperImportError.self) { try FlipperDump(FlipperNFCFile(text: text)) }
    }

    @Test func rejectsABadHexByte() {
        let text = FlipperSamples.ntag213().replacingOccurrences(of: "Page 9: 00 00 00 00", with: "Page 9: 00 0G 00 00")
        do {
            _ = try FlipperDump(FlipperNFCFile(text: text))
            Issue.record("accepted a bad hex byte")
        } catch {
            #expect(error.reason.contains("0G"))
        }
    }
}
