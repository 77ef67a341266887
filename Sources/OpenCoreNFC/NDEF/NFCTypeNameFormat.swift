import NDEF

/// The type name format of an NDEF record, with Core NFC's names and raw values.
///
/// NFC Forum NDEF 1.0 §3.2.6. Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 11.0, *)
public enum NFCTypeNameFormat: UInt8, Sendable {
    case empty = 0x00
    case nfcWellKnown = 0x01
    case media = 0x02
    case absoluteURI = 0x03
    case nfcExternal = 0x04
    case unknown = 0x05
    case unchanged = 0x06
}

extension NFCTypeNameFormat {
    /// The same format in the `NDEF` module's terms.
    public var ndefTypeNameFormat: NDEFTypeNameFormat {
        NDEFTypeNameFormat(rawValue: rawValue) ?? .unknown
    }

    /// Core NFC's name for an `NDEF` module format; TNF 7 (reserved) has none and maps to `.unknown`.
    public init(_ format: NDEFTypeNameFormat) {
        self = NFCTypeNameFormat(rawValue: format.rawValue) ?? .unknown
    }
}
