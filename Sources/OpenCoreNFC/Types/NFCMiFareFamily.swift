/// The MIFARE product family of a tag, as Core NFC's `NFCMiFareFamily`.
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 13.0, *)
public enum NFCMiFareFamily: UInt, Sendable {
    /// An ISO 14443 Type A tag of no recognised MIFARE family.
    case unknown = 1
    /// MIFARE Ultralight, and NTAG tags that answer like it (NFC Forum Type 2).
    case ultralight = 2
    /// MIFARE Plus.
    case plus = 3
    /// MIFARE DESFire.
    case desfire = 4
}
