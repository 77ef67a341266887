/// Why bytes are not a well-formed CTAP2 canonical CBOR item, and where (RFC 8949 §3 and §4.2,
/// CTAP 2.1 §8).
///
/// Equality compares only ``code``: new codes or reasons never break callers; tests assert on
/// `error.code` and `error.offset`.
public struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant (`truncated`, `unsortedMapKeys`…).
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The input ended inside an item (or an item's length or count exceeds the bytes left).
        public static let truncated = Code("truncated")
        /// Additional information 28, 29 or 30 (reserved, RFC 8949 §3).
        public static let reservedAdditionalInfo = Code("reservedAdditionalInfo")
        /// Additional information 31: an indefinite length or a break (not in CTAP2 canonical form).
        public static let indefiniteLength = Code("indefiniteLength")
        /// An integer, length or tag number not in its shortest form (CTAP 2.1 §8).
        public static let nonShortestInteger = Code("nonShortestInteger")
        /// A map key not after the previous one in CTAP2 canonical order.
        public static let unsortedMapKeys = Code("unsortedMapKeys")
        /// A map key that appeared already.
        public static let duplicateMapKey = Code("duplicateMapKey")
        /// Arrays, maps and tags nested deeper than the decoder's limit.
        public static let tooDeep = Code("tooDeep")
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// Bytes after the single top-level item.
        public static let trailingBytes = Code("trailingBytes")
        /// A tag, when the decoder does not accept tags.
        public static let tagNotAllowed = Code("tagNotAllowed")
        /// A simple value under 32 in the two-byte form (RFC 8949 §3.3).
        public static let invalidSimpleValue = Code("invalidSimpleValue")
    }

    /// What went wrong; the only part `==` compares.
    public let code: Code
    /// Byte offset in the input of the offending item's initial byte (or of the trailing bytes).
    public let offset: Int
    /// What was found, for people (`reserved additional information 29`).
    public let reason: String

    /// An error with a code, the byte offset where it was found and a reason.
    public init(_ code: Code, at offset: Int, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// Whether two errors have the same code; offset and reason are ignored.
    public static func == (lhs: CBORError, rhs: CBORError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as `==` compares only the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `invalid CBOR at byte N: name: reason`.
    public var description: String { "invalid CBOR at byte \(offset): \(code.name): \(reason)" }
}
