/// The eight major types of a CBOR data item's initial byte (RFC 8949 §3.1), its top 3 bits.
public enum CBORMajorType: UInt8, Sendable, Hashable, CaseIterable {
    case unsignedInteger = 0
    case negativeInteger = 1
    case byteString = 2
    case textString = 3
    case array = 4
    case map = 5
    case tag = 6
    case simpleOrFloat = 7

    /// The major type of an initial byte.
    public init(initialByte: UInt8) {
        // Three bits always name one of the eight cases.
        self = CBORMajorType(rawValue: initialByte >> 5) ?? .simpleOrFloat
    }
}
