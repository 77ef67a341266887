import NFCSimulator
import NFCTransport
import Testing

@Suite struct FlipperImportTests {
    @Test(arguments: [2, 3, 4])
    func importsAnNTAG213AndItAnswersLikeTheDump(version: Int) async throws {
        let dump = try FlipperDump(FlipperNFCFile(text: FlipperSamples.ntag213(version: version)))
        let tag = try FlipperImport.tag(from: dump)
        #expect(VirtualTagKind(of: tag) == .ntag213)
        #expect(tag.identifier == [0x04, 0xA7, 0x8B, 0x62, 0xC2, 0x1B, 0x90])
        let harness = try await FieldHarness(tag)
        // READ 03: CC then the NDEF TLV of the dump.
        #expect(
            try await harness.send([0x30, 0x03]) == [
                0xE1, 0x10, 0x12, 0x00, 0x03, 0x0B, 0xD1, 0x01, 0x07, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x6F,
            ])
        // READ_SIG returns the dump's signature.
        #expect(try await harness.send([0x3C, 0x00]).prefix(4) == [0x66, 0x0B, 0x9E, 0xEB])
        // The NFC counter is Flipper's counter 2 (READ_CNT 02 answers it, LSB first).
        let image = try #require(tag as? Type2Tag).image
        #expect(image.counters == [7])
    }

    @Test func importsASLIX2() async throws {
        let tag = try FlipperImport.tag(from: FlipperDump(FlipperNFCFile(text: FlipperSamples.slix2)))
        #expect(VirtualTagKind(of: tag) == .slix2)
        let vicinity = try #require(tag as? ISO15693Tag)
        #expect(vicinity.afi == 0x07 && vicinity.isAFILocked)
        let harness = try await FieldHarness(tag)
        // Read Single Block 0 with the option flag: security status 01 (locked), then the CC.
        #expect(try await harness.send([0x42, 0x20, 0x00]) == [0x00, 0x01, 0xE1, 0x40, 0x28, 0x01])
    }

    @Test func rejectsABCCThatDisagreesWithTheUID() throws {
        let text = FlipperSamples.ntag213().replacingOccurrences(of: "Page 0: 04 A7 8B A0", with: "Page 0: 04 A7 8B A1")
        #expect(throws: TagImageError.self) { try FlipperImport.tag(from: FlipperDump(FlipperNFCFile(text: text))) }
    }

    @Test func rejectsAnUnknownISO15693Chip() throws {
        let text = FlipperSamples.slix2.replacingOccurrences(of: "UID: E0 04", with: "UID: E0 07")
        #expect(throws: FlipperImportError.self) { try FlipperImport.tag(from: FlipperDump(FlipperNFCFile(text: text))) }
    }
}
