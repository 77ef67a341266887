/// One application of a virtual MIFARE DESFire: its identifier, key settings, keys and files.
///
/// MIFARE DESFire EV1 short data sheet (MF3ICDx21_41_81) §8.2–§8.4: up to 28 applications, each
/// with up to 14 keys and 32 files; the key settings byte (bits 7–4 the key that changes keys —
/// `0` the master key, `1`–`D` that key, `E` the key itself, `F` none but the master key; bit 3
/// configuration changeable; bit 2 create/delete without the master key; bit 1 directory
/// listing without the master key; bit 0 the master key changeable).
public struct DESFireApplication: Sendable, Hashable {
    /// A key and its version.
    public typealias Key = NTAG424Tag.Key

    /// The 3-byte application identifier, as sent (least significant byte first).
    public var aid: [UInt8]
    /// The key settings byte.
    public var keySettings: UInt8
    /// The type of every key (fixed at creation).
    public var keyType: DESFireKeyType
    /// The keys; key `00` is the application's master key.
    public var keys: [Key]
    /// The ISO/IEC 7816-4 DF identifier, when the application was created with one.
    public var isoID: UInt16?
    /// The ISO/IEC 7816-4 DF name (up to 16 bytes), when the application was created with one.
    public var dfName: [UInt8]?
    /// The files, in creation order.
    public var files: [DESFireDataFile]

    /// An application from its parts; `keyCount` keys of `keyType`, all zero at version `00`.
    public init(
        aid: [UInt8], keySettings: UInt8, keyCount: Int, keyType: DESFireKeyType = .aes, isoID: UInt16? = nil, dfName: [UInt8]? = nil,
        files: [DESFireDataFile] = []
    ) {
        self.aid = aid
        self.keySettings = keySettings
        self.keyType = keyType
        keys = Array(repeating: keyType.zeroKey, count: keyCount)
        self.isoID = isoID
        self.dfName = dfName
        self.files = files
    }

    /// The AID as a number (`000000` is the PICC level).
    public var number: UInt32 { aid.reversed().reduce(0) { $0 << 8 | UInt32($1) } }

    /// The second key settings byte GetKeySettings and CreateApplication use: the crypto method in
    /// bits 7–6 (`00` DES/2K3DES, `01` 3K3DES, `10` AES), ISO file identifiers in bit 5, the
    /// number of keys in bits 3–0.
    var keySettings2: UInt8 { keyType.methodBits | (isoID != nil ? 0x20 : 0) | UInt8(keys.count) }

    /// The key that may change key `target` under ``keySettings``, or `nil` when none may.
    func changeKeyCondition(for target: UInt8) -> UInt8? {
        let rule = keySettings >> 4
        if target == 0 { return keySettings & 0x01 != 0 ? 0 : nil }
        switch rule {
        case 0x0E: return target
        case 0x0F: return nil
        default: return rule
        }
    }

    /// The file with a number, by index.
    func fileIndex(_ number: UInt8) -> Int? { files.firstIndex { $0.number == number } }
}
