/// An error from decoding, encoding or interpreting NDEF.
///
/// Following the swift-asn1 model: a small struct around an extensible ``Code``; two errors are
/// equal when their codes are, so tests assert on `error.code` and new codes break no caller.
/// Each error says where: the byte ``offset`` in the outermost input where known, and the index of
/// the record (``recordIndex``) in the message being decoded.
public struct NDEFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `truncated`.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// The input ended inside a record, or before the record with the ME flag.
        public static let truncated = Code("truncated")
        /// A message with no record at all.
        public static let emptyMessage = Code("emptyMessage")
        /// The first record lacks the MB flag.
        public static let missingMessageBegin = Code("missingMessageBegin")
        /// A record after the first carries the MB flag.
        public static let unexpectedMessageBegin = Code("unexpectedMessageBegin")
        /// Bytes follow the record with the ME flag.
        public static let trailingBytes = Code("trailingBytes")
        /// TNF 7, reserved by the NFC Forum.
        public static let reservedTypeNameFormat = Code("reservedTypeNameFormat")
        /// A field that the record's TNF forbids (a type on an unknown record, anything on an empty one).
        public static let fieldNotAllowed = Code("fieldNotAllowed")
        /// A TNF that requires a type has an empty TYPE field.
        public static let missingType = Code("missingType")
        /// A chunked-record rule is broken (§3.2.3, §2.3.3).
        public static let invalidChunk = Code("invalidChunk")
        /// A configured limit (message size, record count, nesting depth) is exceeded.
        public static let limitExceeded = Code("limitExceeded")
        /// A field is longer than its length field can say (e.g. a type of 256 bytes).
        public static let fieldTooLong = Code("fieldTooLong")
        /// A record's type is not the one a typed view expects.
        public static let unexpectedRecordType = Code("unexpectedRecordType")
        /// A payload that breaks its record type's definition.
        public static let invalidPayload = Code("invalidPayload")
        /// Text that is not valid in its declared encoding.
        public static let invalidEncoding = Code("invalidEncoding")
        /// A value that cannot be encoded (bad language code, bad external type name, …).
        public static let invalidValue = Code("invalidValue")
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset in the outermost input at which the problem lies, where known.
    public let offset: Int?
    /// The index of the record concerned in its message, where known.
    public let recordIndex: Int?
    /// A human-readable reason.
    public let reason: String

    /// An error with its code and reason, located at a byte `offset` and a `recordIndex` when known.
    public init(_ code: Code, _ reason: String, offset: Int? = nil, recordIndex: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
        self.recordIndex = recordIndex
    }

    /// The same error, located at a record if it was not located already.
    public func at(record index: Int?, offset: Int? = nil) -> NDEFError {
        NDEFError(code, reason, offset: self.offset ?? offset, recordIndex: recordIndex ?? index)
    }

    /// Equal when the codes are; the reason and location are ignored.
    public static func == (lhs: NDEFError, rhs: NDEFError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code alone, as ``==(_:_:)`` compares it alone.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code at record N, offset M: reason`, leaving out the location parts that are unknown.
    public var description: String {
        var where_: [String] = []
        if let recordIndex { where_.append("record \(recordIndex)") }
        if let offset { where_.append("offset \(offset)") }
        return where_.isEmpty ? "\(code): \(reason)" : "\(code) at \(where_.joined(separator: ", ")): \(reason)"
    }
}
