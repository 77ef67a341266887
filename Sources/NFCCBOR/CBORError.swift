/// Why bytes are not a well-formed CTAP2 canonical CBOR item, and where (RFC 8949 §3 and §4.2,
/// CTAP 2.1 §8).
public struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The input ended inside an item (or an item's length or count exceeds the bytes left).
        case truncated
        /// Additional information 28, 29 or 30 (reserved, RFC 8949 §3).
        case reservedAdditionalInfo(UInt8)
        /// Additional information 31: an indefinite length or a break (not in CTAP2 canonical form).
        case indefiniteLength
        /// An integer, length or tag number not in its shortest form (CTAP 2.1 §8).
        case nonShortestInteger
        /// A map key not after the previous one in CTAP2 canonical order.
        case unsortedMapKeys
        /// A map key that appeared already.
        case duplicateMapKey
        /// Arrays, maps and tags nested deeper than the limit.
        case tooDeep(limit: Int)
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// Bytes after the single top-level item.
        case trailingBytes(count: Int)
        /// A tag, when the decoder does not accept tags.
        case tagNotAllowed
        /// A simple value under 32 in the two-byte form (RFC 8949 §3.3).
        case invalidSimpleValue(UInt8)

        public var description: String {
            switch self {
            case .truncated: "input ends inside an item"
            case .reservedAdditionalInfo(let ai): "reserved additional information \(ai)"
            case .indefiniteLength: "indefinite length or break (additional information 31)"
            case .nonShortestInteger: "integer or length not in its shortest form"
            case .unsortedMapKeys: "map keys not in CTAP2 canonical order"
            case .duplicateMapKey: "duplicate map key"
            case .tooDeep(let limit): "nested deeper than \(limit) levels"
            case .invalidUTF8: "text string is not valid UTF-8"
            case .trailingBytes(let count): "\(count) byte(s) after the item"
            case .tagNotAllowed: "tags are not allowed"
            case .invalidSimpleValue(let value): "simple value \(value) in the two-byte form"
            }
        }
    }

    public let reason: Reason
    /// Byte offset in the input of the item's initial byte (or of the trailing bytes).
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "invalid CBOR at byte \(offset): \(reason)" }
}
