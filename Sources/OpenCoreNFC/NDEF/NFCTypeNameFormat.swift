import NDEF

/// The type name format of an NDEF record, with Core NFC's names and raw values.
///
/// NFC Forum NDEF 1.0 §3.2.6. Not `@frozen`: switch over it with `@unknown default`, as on iOS.
@available(iOS 11.0, *)
public enum NFCTypeNameFormat: UInt8, Sendable {
    /// TNF 0: the record has no type, identifier or payload.
    case empty = 0x00
    /// TNF 1: an NFC Forum well-known type (RTD), such as `T` or `U`.
    case nfcWellKnown = 0x01
    /// TNF 2: a media type (RFC 2046), such as `text/plain`.
    case media = 0x02
    /// TNF 3: the type is an absolute URI (RFC 3986).
    case absoluteURI = 0x03
    /// TNF 4: an NFC Forum external type, `domain:type`.
    case nfcExternal = 0x04
    /// TNF 5: the payload's type is unknown; the record has no type.
    case unknown = 0x05
    /// TNF 6: a middle or last chunk of a chunked payload; the type is the first chunk's.
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
