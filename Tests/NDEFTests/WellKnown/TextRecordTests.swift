import NDEF
import NFCTestSupport
import Testing

@Suite struct TextRecordTests {
    @Test func decodesTheRTDExample() throws {
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes("02 65 6e") + Array("Hello, world!".utf8))
        let text = try TextRecord(record)
        #expect(text.text == "Hello, world!")
        #expect(text.languageCode == "en")
        #expect(text.encoding == .utf8)
        #expect(try text.record() == record)
    }

    @Test(arguments: [
        ("82 65 6e fe ff 00 48 00 e9", TextRecord.UTF16Layout.bigEndianWithBOM),
        ("82 65 6e ff fe 48 00 e9 00", .littleEndianWithBOM),
        ("82 65 6e 00 48 00 e9", .bigEndian),
    ])
    func decodesUTF16InEveryLayoutAndRoundTrips(_ hex: String, _ layout: TextRecord.UTF16Layout) throws {
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes(hex))
        let text = try TextRecord(record)
        #expect(text.text == "Hé")
        #expect(text.encoding == .utf16)
        #expect(text.utf16Layout == layout)
        #expect(try text.record() == record)
    }

    /// NFC Forum Text RTD 1.0 §3.2.1: bit 7 of the status byte alone says UTF-16. ASCII text in
    /// big-endian UTF-16 without a BOM is valid UTF-8 too (`00 41` is NUL, "A"), so only the bit
    /// tells the two apart.
    @Test func theStatusBitAloneChoosesUTF16() throws {
        let utf16 = try TextRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes("82 65 6e 00 41 00 42")))
        #expect(utf16.text == "AB" && utf16.encoding == .utf16 && utf16.utf16Layout == .bigEndian)
        let utf8 = try TextRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes("02 65 6e 00 41 00 42")))
        #expect(utf8.text == "\u{0}A\u{0}B" && utf8.encoding == .utf8)
    }

    @Test func encodesSurrogatePairsInUTF16() throws {
        let text = TextRecord(text: "🎉x", languageCode: "de-CH", encoding: .utf16)
        let payload = try text.payload()
        #expect(payload == hexBytes("85") + Array("de-CH".utf8) + hexBytes("fe ff d8 3c df 89 00 78"))
        #expect(try TextRecord(text.record()) == text)
    }

    @Test func rejectsMalformedPayloads() {
        func decode(_ hex: String, _ options: NDEFDecodingOptions = .strict) -> NDEFError? {
            ndefError { try TextRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "T", payload: hexBytes(hex)), options: options) }
        }
        #expect(decode("")?.code == .invalidPayload)
        #expect(decode("05 65 6e")?.code == .invalidPayload, "language longer than the payload")
        #expect(decode("00 41")?.code == .invalidPayload, "no language code")
        #expect(decode("00 41", .lenient) == nil)
        #expect(decode("02 65 6e c3 28")?.code == .invalidEncoding, "ill-formed UTF-8")
        #expect(decode("02 65 6e c3 28", .lenient) == nil)
        #expect(decode("82 65 6e 00")?.code == .invalidEncoding, "odd UTF-16 length")
        #expect(decode("82 65 6e d8 00 00 41")?.code == .invalidEncoding, "unpaired surrogate")
        #expect(decode("02 c3 a9 41")?.code == .invalidPayload, "non-ASCII language code")
        #expect(
            ndefError { try TextRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [0])) }?.code == .unexpectedRecordType)
    }

    @Test func refusesToEncodeAnOverlongLanguage() {
        let text = TextRecord(text: "x", languageCode: String(repeating: "a", count: 64))
        #expect(ndefError { try text.record() }?.code == .invalidValue)
        #expect(ndefError { try TextRecord(text: "x", languageCode: "fr\u{e9}").record() }?.code == .invalidValue)
    }
}
