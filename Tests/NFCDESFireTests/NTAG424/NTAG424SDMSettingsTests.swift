import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTestSupport
import Testing

/// ChangeFileSettings with SDM settings the chip cannot hold: PARAMETER_ERROR (data sheet
/// NT4H2421Gx §10.7.1, Table 71), or PERMISSION_DENIED for SDM on a file other than the NDEF file.
@Suite struct NTAG424SDMSettingsTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    static let refused: [(String, NTAG424SDMSettings)] = [
        (
            "PICC data (32 characters at 20h) overlaps the MAC at 30h",
            NTAG424SDMSettings(
                mirrorsUID: true, mirrorsCounter: true, metaRead: .key(2), fileRead: .key(1), piccDataOffset: 0x20, macInputOffset: 0x30,
                macOffset: 0x30)
        ),
        (
            "SDMMetaRead names a key but nothing is mirrored",
            NTAG424SDMSettings(
                mirrorsUID: false, mirrorsCounter: false, metaRead: .key(2), fileRead: .key(1), piccDataOffset: 0x20, macInputOffset: 0x60,
                macOffset: 0x60)
        ),
        (
            "SDMENCLength not a multiple of 32",
            NTAG424SDMSettings(
                mirrorsUID: true, mirrorsCounter: true, metaRead: .key(2), fileRead: .key(1), piccDataOffset: 0x10, macInputOffset: 0x40,
                encryptedDataOffset: 0x40, encryptedDataLength: 20, macOffset: 0x80)
        ),
        (
            "the MAC runs past the end of the file",
            NTAG424SDMSettings(
                mirrorsUID: true, mirrorsCounter: true, metaRead: .key(2), fileRead: .key(1), piccDataOffset: 0x10, macInputOffset: 0xFA,
                macOffset: 0xFA)
        ),
        (
            "SDMCtrRet names a key but the counter is not mirrored",
            NTAG424SDMSettings(
                mirrorsUID: true, mirrorsCounter: false, counterRetrieval: .key(1), metaRead: .key(2), fileRead: .key(1),
                piccDataOffset: 0x10, macInputOffset: 0x40, macOffset: 0x40)
        ),
    ]

    @Test(arguments: refused)
    func refusedWithAParameterError(name: String, sdm: NTAG424SDMSettings) async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        var settings = try await client.fileSettings(2)
        settings.sdm = sdm
        let error = await #expect(throws: DESFireError.self, "\(name)") { try await client.changeFileSettings(2, to: settings) }
        #expect(error?.code == .parameterError, "\(name): \(String(describing: error))")
        #expect(await client.session == nil)
        #expect(card.tag.withLock { $0.files[1].sdm } == nil)
    }

    @Test func sdmOnlyOnTheNDEFFile() async throws {
        let card = VirtualNTAG424()
        let client = NTAG424Client(transmitter: card)
        try await client.selectApplication()
        try await client.authenticate(keyNumber: 0, key: Self.zero)
        var settings = try await client.fileSettings(3)
        settings.sdm = NTAG424SDMSettings(
            mirrorsUID: true, mirrorsCounter: true, metaRead: .key(2), fileRead: .key(1), piccDataOffset: 0, macInputOffset: 0x40,
            macOffset: 0x40)
        let error = await #expect(throws: DESFireError.self) { try await client.changeFileSettings(3, to: settings) }
        #expect(error?.code == .permissionDenied)
    }
}
