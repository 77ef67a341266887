import ISO7816
import Testing

/// `StatusWord.meaning`: ISO/IEC 7816-4:2020 §5.6 Tables 5 and 6, specific words first, then SW1 groups.
@Suite struct StatusWordMeaningTests {
    @Test(
        arguments: [
            (0x9000, "normal processing"),
            (0x6A82, "file or application not found"),
            (0x6982, "security status not satisfied"),
            (0x6983, "authentication method blocked"),
            (0x6700, "wrong length"),
            (0x6D00, "instruction code not supported or invalid"),
            (0x6E00, "class not supported"),
            (0x6A86, "incorrect parameters P1-P2"),
            (0x6581, "execution error: memory failure"),
            (0x6283, "warning: selected file deactivated"),
        ] as [(UInt16, String)])
    func specificWords(_ raw: UInt16, _ meaning: String) {
        #expect(StatusWord(rawValue: raw).meaning == meaning)
    }

    @Test func groupsCarryTheirNumbers() {
        #expect(StatusWord(rawValue: 0x6110).meaning == "normal processing: 16 more bytes available (GET RESPONSE)")
        #expect(StatusWord(rawValue: 0x6100).meaning.contains("256 more bytes"))
        #expect(StatusWord(rawValue: 0x6C0F).meaning == "wrong Le: 15 bytes available")
        #expect(StatusWord(rawValue: 0x63C2).meaning.contains("2 tries left"))
        #expect(StatusWord(rawValue: 0x6999).meaning == "command not allowed")
        #expect(StatusWord(rawValue: 0x91AF).meaning == "not an ISO/IEC 7816-4 status (proprietary)")
    }
}
