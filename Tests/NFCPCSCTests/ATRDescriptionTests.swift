import NFCBytes
import Testing

@testable import NFCPCSC

/// `ATRDescription`: PC/SC Part 3 §3.1.3.2.3's two contactless ATR shapes in words, and a
/// malformed ATR described, never thrown.
@Suite struct ATRDescriptionTests {
    /// `bytes` with its TCK appended (ISO/IEC 7816-3 §8.2.5: T0 to the last byte, exclusive-or to 0).
    static func withTCK(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [bytes.dropFirst().reduce(0, ^)]
    }

    static func storage(_ standard: UInt8, _ name: UInt16) -> [UInt8] {
        withTCK(
            [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, standard, UInt8(name >> 8), UInt8(name & 0xFF)]
                + [0, 0, 0, 0])
    }

    @Test(
        arguments: [
            (0x03, 0x0001, "storage card: ISO/IEC 14443 A part 3, MIFARE Classic 1K"),
            (0x03, 0x0003, "storage card: ISO/IEC 14443 A part 3, MIFARE Ultralight (or NTAG21x)"),
            (0x03, 0x003D, "storage card: ISO/IEC 14443 A part 3, MIFARE Ultralight EV1"),
            (0x0B, 0x0014, "storage card: ISO/IEC 15693 part 3, ICODE SLI"),
            (0x11, 0x003B, "storage card: FeliCa, FeliCa"),
            (0x0B, 0x0000, "storage card: ISO/IEC 15693 part 3"),
            (0x03, 0x7777, "storage card: ISO/IEC 14443 A part 3, card name 7777"),
        ] as [(UInt8, UInt16, String)])
    func storageCards(_ standard: UInt8, _ name: UInt16, _ text: String) {
        let description = ATRDescription(atr: Self.storage(standard, name))
        #expect(description.kind == .storage)
        #expect(description.description == text)
    }

    @Test func isoDEPCardsShowTheirHistoricalBytesAndText() throws {
        // A YubiKey 5 NFC's ATR behind a contactless reader: 3B 8D 80 01 + ATS historical bytes.
        let yubiKey = Self.withTCK([0x3B, 0x8D, 0x80, 0x01, 0x80, 0x73, 0xC0, 0x21, 0xC0, 0x57, 0x59, 0x75, 0x62, 0x69, 0x4B, 0x65, 0x79])
        let description = ATRDescription(atr: yubiKey)
        #expect(description.kind == .isoDEP)
        #expect(description.historicalText == "YubiKey")
        #expect(description.description == "ISO/IEC 14443-4 card, historical bytes 8073c021c057597562694b6579 (\"YubiKey\")")
        // A YubiKey NEO's: the name without a category indicator.
        let neo = Self.withTCK([0x3B, 0x8C, 0x80, 0x01, 0x59, 0x75, 0x62, 0x69, 0x6B, 0x65, 0x79, 0x4E, 0x45, 0x4F, 0x72, 0x33])
        #expect(ATRDescription(atr: neo).historicalText == "YubikeyNEOr3")
        // Our emulated Type 4 B card (docs/pcsc.md): application data, protocol info, MBLI/CID.
        let typeB = ATRDescription(atr: try Hex.decode("3B8880010000000000817100F9"))
        #expect(typeB.kind == .isoDEP && typeB.historicalBytes == [0, 0, 0, 0, 0x00, 0x81, 0x71, 0x00] && typeB.historicalText == nil)
    }

    @Test func malformedATRsAreDescribed() throws {
        #expect(ATRDescription(atr: [0x3B]).kind == .malformed)
        let badCheck = ATRDescription(atr: try Hex.decode("3B8880010000000000817100F8"))
        #expect(badCheck.kind == .malformed && badCheck.description.contains("TCK does not match"))
        #expect(ATRDescription(atr: try Hex.decode("3B021415")).kind == .contact)
    }
}
