/// Whether a tag holds NDEF data and can be written, as Core NFC's `NFCNDEFStatus`.
///
/// Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 13.0, *)
public enum NFCNDEFStatus: UInt, Sendable {
    /// The tag is not NDEF formatted: no NDEF reads or writes.
    case notSupported = 1
    /// The tag holds NDEF data and can be written.
    case readWrite = 2
    /// The tag holds NDEF data that cannot be changed.
    case readOnly = 3
}
