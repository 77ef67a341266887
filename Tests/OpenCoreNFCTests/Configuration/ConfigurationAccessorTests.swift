import OpenCoreNFC
import Testing

/// The typed views of NFCAppConfiguration: formats, AIDs, system codes.
@Suite struct ConfigurationAccessorTests {
    @Test func formatsParseFromTheirEntitlementStrings() {
        #expect(NFCAppConfiguration.Format(rawValue: "NDEF") == .ndef)
        #expect(NFCAppConfiguration.Format(rawValue: "TAG") == .tag)
        #expect(NFCAppConfiguration.Format(rawValue: "PACE") == .other("PACE"))
        #expect(NFCAppConfiguration.Format(rawValue: "tag") == .other("tag"))
        #expect(NFCAppConfiguration.Format.other("TAG") == .tag)
        #expect(Set<NFCAppConfiguration.Format>([.other("TAG"), .tag]).count == 1)
    }

    @Test func readerSessionFormatsCollectTheDeclaredValues() {
        let configuration = NFCAppConfiguration(
            usageDescription: nil, readerSessionFormatValues: ["NDEF", "TAG", "PACE", "TAG"],
            iso7816SelectIdentifierValues: nil, felicaSystemCodeValues: nil, associatedDomains: [],
            isAppExtension: false, minimumOSVersion: nil)
        #expect(configuration.readerSessionFormats == [.ndef, .tag, .other("PACE")])
    }

    @Test func selectIdentifiersKeepWellFormedOnesInOrder() {
        let configuration = NFCAppConfiguration(iso7816SelectIdentifiers: [
            "A000000308",  // 5 bytes: the smallest AID
            "d2760000850101",  // lower case is fine
            "A0000003",  // 4 bytes: too short
            "A00000030",  // odd digit count
            "D2 76 00 00 85 01 01",  // spaces
            "0xD2760000850101",  // 0x prefix
            "A0000000000000000000000000000000",  // 16 bytes: the largest
            "A000000000000000000000000000000000",  // 17 bytes
            "",
            "A000000527471117",
        ])
        #expect(
            configuration.iso7816SelectIdentifiers == [
                [0xA0, 0x00, 0x00, 0x03, 0x08],
                [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01],
                [0xA0] + Array(repeating: 0x00, count: 15),
                [0xA0, 0x00, 0x00, 0x05, 0x27, 0x47, 0x11, 0x17],
            ])
    }

    @Test func systemCodesAreExactlyFourHexDigits() {
        let configuration = NFCAppConfiguration(felicaSystemCodes: [
            "0003", "fe00", "12FC", "88B4", "FFFF", "003", "00003", "0x03", "ZZZZ", "",
        ])
        #expect(configuration.felicaSystemCodes == [0x0003, 0xFE00, 0x12FC, 0x88B4, 0xFFFF])
    }

    @Test func absentListsGiveEmptyTypedValues() {
        let configuration = NFCAppConfiguration()
        #expect(configuration.iso7816SelectIdentifiers.isEmpty)
        #expect(configuration.felicaSystemCodes.isEmpty)
        #expect(configuration.readerSessionFormats.isEmpty)
        #expect(configuration.selectableAIDs.isEmpty)
    }
}
