/// The encryption a FeliCa node's keys are for, as reported by Request Service v2, as Core NFC's
/// `NFCFeliCaEncryptionId`.
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 13.0, *)
public enum NFCFeliCaEncryptionId: Int, Sendable {
    /// AES keys only (`0x4F`).
    case AES = 0x4F
    /// AES and DES keys (`0x41`).
    case AES_DES = 0x41
}

// MARK: - The iOS 13 spellings

@available(iOS 13.0, *)
extension NFCFeliCaEncryptionId {
    /// The iOS 13 spelling of ``AES``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaEncryptionId.AES")
    public static var aes: NFCFeliCaEncryptionId { .AES }
    /// The iOS 13 spelling of ``AES_DES``; deprecated.
    @available(*, deprecated, renamed: "NFCFeliCaEncryptionId.AES_DES")
    public static var aes_des: NFCFeliCaEncryptionId { .AES_DES }
}

/// The iOS 13 name of ``NFCFeliCaEncryptionId``.
@available(*, deprecated, renamed: "NFCFeliCaEncryptionId")
public typealias EncryptionId = NFCFeliCaEncryptionId
