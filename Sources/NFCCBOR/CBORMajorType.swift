/// The eight major types of a CBOR data item's initial byte (RFC 8949 §3.1), its top 3 bits.
public enum CBORMajorType: UInt8, Sendable, Hashable, CaseIterable {
    /// 0: an unsigned integer, 0 to 2^64−1.
    case unsignedInteger = 0
    /// 1: a negative integer, −1 minus the argument.
    case negativeInteger = 1
    /// 2: a byte string; the argument is its length in bytes.
    case byteString = 2
    /// 3: a UTF-8 text string; the argument is its length in bytes.
    case textString = 3
    /// 4: an array; the argument is its number of data items.
    case array = 4
    /// 5: a map; the argument is its number of key/value pairs.
    case map = 5
    /// 6: a tagged data item; the argument is the tag number.
    case tag = 6
    /// 7: a simple value (false, true, null, undefined, …), a floating-point number, or the "break" stop code.
    case simpleOrFloat = 7

    /// The major type of an initial byte.
    public init(initialByte: UInt8) {
        // Three bits always name one of the eight cases.
        self = CBORMajorType(rawValue: initialByte >> 5) ?? .simpleOrFloat
    }
}
