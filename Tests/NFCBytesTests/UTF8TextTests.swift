import NFCBytes
import Testing

/// `UTF8Text.validated` accepts exactly the well-formed UTF-8 of RFC 3629 §4, on its ASCII fast
/// path and off it.
@Suite struct UTF8TextTests {
    @Test("ASCII, two-, three- and four-byte sequences decode")
    func wellFormed() {
        #expect(UTF8Text.validated(Array("https://example.org/a?b=c".utf8)) == "https://example.org/a?b=c")
        #expect(UTF8Text.validated([]) == "")
        #expect(UTF8Text.validated([0xC3, 0xA9]) == "é")
        #expect(UTF8Text.validated([0xE2, 0x82, 0xAC]) == "€")
        #expect(UTF8Text.validated([0xF0, 0x9F, 0x93, 0xB1]) == "📱")
        #expect(UTF8Text.validated(Array("Ünïcode and ASCII".utf8)[2...]) == "nïcode and ASCII", "a slice")
    }

    @Test(
        "Ill-formed sequences are refused, not repaired",
        arguments: [
            [0x80] as [UInt8],  // a lone continuation byte
            [0xC0, 0x80],  // overlong NUL
            [0xE0, 0x80, 0xAF],  // overlong '/'
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate (U+D800)
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0x41, 0xC3],  // cut short after ASCII
            [0xFF],
        ])
    func illFormed(bytes: [UInt8]) {
        #expect(UTF8Text.validated(bytes) == nil, "\(bytes)")
        #expect(UTF8Text.validated(bytes[...]) == nil, "\(bytes) as a slice")
    }
}
