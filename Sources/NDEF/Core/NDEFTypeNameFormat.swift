/// The Type Name Format of an NDEF record: how to read its TYPE field.
///
/// NFC Forum NDEF 1.0 §3.2.6 (Table 3).
public enum NDEFTypeNameFormat: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No type, no identifier, no payload.
    case empty = 0x00
    /// An NFC Forum well-known type (RTD), e.g. `T`, `U`, `Sp`.
    case wellKnown = 0x01
    /// A media type as in RFC 2046, e.g. `text/plain`.
    case media = 0x02
    /// An absolute URI as in RFC 3986 naming the type.
    case absoluteURI = 0x03
    /// An NFC Forum external type, `domain:type`.
    case external = 0x04
    /// Unknown payload type; the TYPE field must be empty.
    case unknown = 0x05
    /// A middle or terminating chunk of a chunked record; the TYPE field must be empty.
    case unchanged = 0x06
    /// Reserved by the NFC Forum; a strict decoder rejects it.
    case reserved = 0x07

    /// A stable lower-camel-case name (used by the JSON form).
    public var description: String {
        switch self {
        case .empty: return "empty"
        case .wellKnown: return "wellKnown"
        case .media: return "media"
        case .absoluteURI: return "absoluteURI"
        case .external: return "external"
        case .unknown: return "unknown"
        case .unchanged: return "unchanged"
        case .reserved: return "reserved"
        }
    }

    /// Looks a format up by its ``description`` name.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}
