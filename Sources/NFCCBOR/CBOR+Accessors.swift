/// Typed views of a decoded item: each is `nil` when the item is of another kind.
extension CBOR {
    /// The integer value when it fits an `Int` (major types 0 and 1).
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The value of an unsigned integer (major type 0); `nil` for a negative integer too.
    public var unsignedValue: UInt64? {
        if case .unsigned(let n) = self { return n }
        return nil
    }

    /// The bytes of a byte string (major type 2).
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The string of a text string (major type 3).
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The value of `true` or `false` (simple values 21 and 20).
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The items of an array (major type 4), in order.
    public var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The entries of a map (major type 5).
    public var mapValue: [CBOR: CBOR]? {
        if case .map(let map) = self { return map }
        return nil
    }

    /// The value under an integer key of a map (CTAP2 command and response parameters).
    public subscript(key: Int) -> CBOR? {
        mapValue?[.int(key)]
    }

    /// The value under a text key of a map (WebAuthn entities, options, attestation statements).
    public subscript(key: String) -> CBOR? {
        mapValue?[.text(key)]
    }
}
