/// Flipper Zero dumps the CLI tests import (`nfc tag import`).
enum FlipperFixtures {
    /// A Flipper Zero NTAG213 dump (Flipper's NFC file format, version 4).
    static let ntag213: String = {
        var dump = """
            Filetype: Flipper NFC device
            Version: 4
            Device type: NTAG/Ultralight
            UID: 04 A7 8B 62 C2 1B 90
            ATQA: 00 44
            SAK: 00
            NTAG/Ultralight type: NTAG213
            Mifare version: 00 04 04 02 01 00 0F 03
            Pages total: 45

            """
        let pages = ["04 A7 8B A0", "62 C2 1B 90", "2B 48 00 00", "E1 10 12 00", "03 00 FE 00"]
        for index in 0..<45 {
            dump += "Page \(index): \(index < pages.count ? pages[index] : index == 41 ? "04 00 00 FF" : "00 00 00 00")\n"
        }
        return dump
    }()
}
