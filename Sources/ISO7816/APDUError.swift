/// A malformed APDU, or an APDU exchange that could not complete.
public struct APDUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant (`truncated`, `invalidLength`…).
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// Fewer bytes than the structure needs (a command under 4 bytes, a response under 2).
        public static let truncated = Code("truncated")
        /// The length fields disagree with the bytes (ISO/IEC 7816-4 §5.1 cases).
        public static let invalidLength = Code("invalidLength")
        /// A value out of its range (Lc over 65 535, Le over 65 536, a data field that needs
        /// extended length on a channel without it).
        public static let valueOutOfRange = Code("valueOutOfRange")
        /// The card kept answering `61xx` or `6Cxx` beyond the limit.
        public static let tooManyExchanges = Code("tooManyExchanges")
    }

    /// What went wrong; the only part `==` compares.
    public let code: Code
    /// Byte offset in the APDU where the problem was found, if known.
    public let offset: Int?
    /// What was wrong, for people; match on ``code``, not on this text.
    public let reason: String

    /// An error with a code, the byte offset where it was found (`nil` when unknown) and a reason.
    public init(_ code: Code, at offset: Int? = nil, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// Whether two errors have the same code; offset and reason are ignored.
    public static func == (lhs: APDUError, rhs: APDUError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as `==` compares only the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `name at byte N: reason`, or `name: reason` when the offset is unknown.
    public var description: String {
        offset.map { "\(code.name) at byte \($0): \(reason)" } ?? "\(code.name): \(reason)"
    }
}
