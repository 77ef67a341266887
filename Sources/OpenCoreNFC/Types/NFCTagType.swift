/// The technology of a detected tag, as Core NFC's `NFCTagType`, which Swift sees as
/// `__NFCTagType` (the type of `__NFCTag.type`).
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 11.0, *)
public enum __NFCTagType: UInt, Sendable {
    /// ISO 15693 (NFC Forum Type 5).
    case ISO15693 = 1
    /// FeliCa (NFC Forum Type 3).
    @available(iOS 13.0, *)
    case feliCa = 2
    /// ISO 14443-4 with ISO 7816 commands (NFC Forum Type 4).
    @available(iOS 13.0, *)
    case iso7816Compatible = 3
    /// MIFARE (ISO 14443 Type A: Ultralight, Plus, DESFire).
    @available(iOS 13.0, *)
    case miFare = 4
}

/// The Objective-C name of `__NFCTagType`. Core NFC's Swift interface has no such name; it is
/// here for readability in this package.
@available(iOS 11.0, *)
public typealias NFCTagType = __NFCTagType
