/// Formatting a DESFire as an NFC Forum Type 4 Tag, as NXP's AN11004 ("MIFARE DESFire as Type 4
/// Tag", rev. 2.4, mapping version 2.0) and the common Android and NXP tools lay it out.
extension DESFireClient {
    /// The NDEF application's AID, `000001`.
    public static let ndefApplication = DESFireAID(wire: [0x01, 0x00, 0x00])
    /// The NDEF application's DF name (NFC Forum T4T 2.0 §5.1).
    public static let ndefApplicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]

    /// Creates the NDEF application and its two files: application `000001` (ISO `E110`, DF name
    /// `D2760000850101`, one AES key, key settings `0F`), file 1 (`E103`) the 15-byte CC, free to
    /// read and written under key 0, and file 2 (`E104`) the NDEF file of `ndefFileSize` bytes,
    /// free to read and write, NLEN `0000` (INITIALIZED). The CC file is created writable by
    /// anyone, filled, then closed to key 0 with a plain ChangeFileSettings, so no authentication
    /// is needed (DESFire EV1 has no EV2 authentication). With `piccKey` the PICC master key
    /// (key 0) is authenticated first as its type asks (``authenticateAsKeyTypeAsks(keyNumber:key:)``:
    /// AuthenticateISO for the factory DES key), for cards whose settings do not allow free creation.
    ///
    /// An application `000001` that exists already with no files (created by hand with `nfc
    /// desfire create-app` on a card that keeps creation to the PICC master key, or left by an
    /// interrupted format) is completed rather than refused.
    /// - Throws: ``DESFireError`` `.invalidArgument` for a size outside 3–32,767 bytes (T4T 2.0
    ///   limits a short NDEF file to 7FFF), `.duplicateError` when application `000001` exists
    ///   with files, or another application holds `E110` or the DF name, `.authenticationError`
    ///   when the PICC wants its master key.
    public func formatForNDEF(ndefFileSize: Int = 2_048, piccKey: [UInt8]? = nil) async throws {
        guard (3...0x7FFF).contains(ndefFileSize) else {
            throw DESFireError(.invalidArgument, "the NDEF file has 3 to 32767 bytes, not \(ndefFileSize)")
        }
        try await selectApplication(.picc)
        if let piccKey { try await authenticateAsKeyTypeAsks(keyNumber: 0, key: piccKey) }
        do {
            try await createApplication(
                Self.ndefApplication, keySettings: 0x0F, keyCount: 1, isoFileIdentifier: 0xE110, dfName: Self.ndefApplicationName)
            try await selectApplication(Self.ndefApplication)
        } catch let error as DESFireError where error.code == .duplicateError {
            // Complete an empty application 000001; refuse anything else.
            guard (try? await applicationIDs())?.contains(Self.ndefApplication) == true else { throw error }
            try await selectApplication(Self.ndefApplication)
            guard (try? await fileIDs()) == [] else { throw error }
        }
        try await createDataFile(
            1, size: 15, access: FileAccess(isoFileIdentifier: 0xE103, read: .free, write: .free, readWrite: .free, change: .free))
        try await write(Self.capabilityContainer(ndefFileSize: ndefFileSize), file: 1)
        try await changeFileSettings(
            1,
            to: DESFireFileSettings(
                kind: .standard(size: 15), mode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0)))
        try await createDataFile(
            2, size: ndefFileSize,
            access: FileAccess(isoFileIdentifier: 0xE104, read: .free, write: .free, readWrite: .free, change: .key(0)))
    }

    /// The CC: CCLEN `000F`, mapping version 2.0, MLe `003B` (59), MLc `0034` (52), then the NDEF
    /// File Control TLV (`E104`, the size, read `00`, write `00`) — AN11004 §4 and T4T 2.0 §5.1.2.
    public static func capabilityContainer(ndefFileSize: Int) -> [UInt8] {
        [0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04]
            + [UInt8(truncatingIfNeeded: ndefFileSize >> 8), UInt8(truncatingIfNeeded: ndefFileSize), 0x00, 0x00]
    }
}
