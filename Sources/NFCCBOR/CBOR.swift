/// A CBOR data item (RFC 8949 §3): the value model shared by the FIDO client and the emulated
/// authenticator.
///
/// Maps are dictionaries: the encoder puts their keys in CTAP2 canonical order
/// (CTAP 2.1 §8 "Message encoding") and the decoder rejects duplicates, so order is never part
/// of the value. Floating-point numbers are kept as `Double`; CTAP2 messages carry none.
public indirect enum CBOR: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n` for the stored `n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes([UInt8])
    /// Major type 3: a UTF-8 text string.
    case text(String)
    /// Major type 4: an array.
    case array([CBOR])
    /// Major type 5: a map.
    case map([CBOR: CBOR])
    /// Major type 6: a tagged item (not allowed in CTAP2 canonical form; decoded only on request).
    case tagged(UInt64, CBOR)
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null
    /// Major type 7, simple value 23.
    case undefined
    /// Major type 7, any other simple value (0–19, 32–255).
    case simple(UInt8)
    /// Major type 7, a half-, single- or double-precision float.
    case float(Double)

    /// An integer item: major type 0 for `value >= 0`, else major type 1.
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The major type this item encodes as.
    public var majorType: CBORMajorType {
        switch self {
        case .unsigned: .unsignedInteger
        case .negative: .negativeInteger
        case .bytes: .byteString
        case .text: .textString
        case .array: .array
        case .map: .map
        case .tagged: .tag
        case .bool, .null, .undefined, .simple, .float: .simpleOrFloat
        }
    }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// An integer item, as ``int(_:)`` makes it: major type 0 for values from 0, else major type 1.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A text string item (major type 3).
    public init(stringLiteral value: String) { self = .text(value) }
    /// `true` or `false` (major type 7, simple value 21 or 20).
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array item holding the elements in order.
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
    /// A map item; when a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        var map: [CBOR: CBOR] = [:]
        for (key, value) in elements { map[key] = value }
        self = .map(map)
    }
}
