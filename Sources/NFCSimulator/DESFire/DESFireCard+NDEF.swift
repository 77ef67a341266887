extension DESFireCard {
    /// The NFC Forum Type 4 layout NXP's AN11004 ("MIFARE DESFire as Type 4 Tag", rev. 2.4,
    /// mapping version 2.0) gives: application `000001` with ISO DF identifier `E110` and DF name
    /// `D2760000850101`, one AES key, key settings `0F`; file `01` (`E103`) the 15-byte capability
    /// container, free to read, written under key 0; file `02` (`E104`) the NDEF file, free to read
    /// and write, NLEN `0000`.
    public static func ndefFormatted(model: DESFireModel = .ev3, uid: [UInt8] = DESFireCard.defaultUID, ndefFileSize: Int = 2_048)
        -> DESFireCard
    {
        var card = DESFireCard(model: model, uid: uid)
        var app = DESFireApplication(
            aid: ndefApplicationAID, keySettings: 0x0F, keyCount: 1, isoID: 0xE110, dfName: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01])
        app.files = [
            DESFireDataFile(
                number: 0x01, isoID: 0xE103, kind: .standard, mode: .plain,
                access: NTAG424File.AccessRights(read: 0x0E, write: 0x00, readWrite: 0x00, change: 0x00),
                contents: capabilityContainer(ndefFileSize: ndefFileSize)),
            DESFireDataFile(
                number: 0x02, isoID: 0xE104, kind: .standard, mode: .plain,
                access: NTAG424File.AccessRights(read: 0x0E, write: 0x0E, readWrite: 0x0E, change: 0x00),
                contents: [UInt8](repeating: 0, count: ndefFileSize)),
        ]
        card.applications = [app]
        return card
    }

    /// `000001`, as sent.
    public static let ndefApplicationAID: [UInt8] = [0x01, 0x00, 0x00]

    /// CCLEN `000F`, mapping version 2.0, MLe `003B` (59), MLc `0034` (52), and the NDEF File
    /// Control TLV: `E104`, the file size, read `00` and write `00` (AN11004 §4, NFC Forum T4T).
    static func capabilityContainer(ndefFileSize: Int) -> [UInt8] {
        [
            0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, UInt8(ndefFileSize >> 8 & 0xFF), UInt8(ndefFileSize & 0xFF),
            0x00, 0x00,
        ]
    }
}
