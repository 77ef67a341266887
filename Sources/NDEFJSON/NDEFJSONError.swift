/// Why a JSON description of an NDEF message cannot be used.
///
/// A struct around an extensible ``Code-swift.struct`` (as `NDEFError`): equal when the codes are;
/// the path and offset say where.
public struct NDEFJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// The text is not JSON (``NDEFJSONError/offset`` is where it stops being JSON).
        public static let invalidJSON = Code("invalidJSON")
        /// A value has the wrong type or range, or a required key is missing.
        public static let invalidValue = Code("invalidValue")
        /// A key the form does not have (a misspelt `"langauge"`, say).
        public static let unknownKey = Code("unknownKey")
        /// The message built would not read back with the strict decoder (a record breaks its
        /// type's definition, or the message is over the decoder's limits).
        public static let unreadable = Code("unreadable")
    }

    /// What was wrong.
    public let code: Code
    /// Where in the JSON, as a path from the root (`$.records[0].uri`); nil for the whole text.
    public let path: String?
    /// A byte offset: into the JSON text for ``Code-swift.struct/invalidJSON``, into the encoded
    /// message for ``Code-swift.struct/unreadable`` when the decoder named one.
    public let offset: Int?
    /// What was wrong, for people.
    public let reason: String

    /// An error with its code, reason and location.
    public init(_ code: Code, path: String? = nil, offset: Int? = nil, _ reason: String) {
        self.code = code
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    /// A value error at a path (the form's builders use this).
    init(path: String, reason: String) {
        self.init(.invalidValue, path: path, reason)
    }

    /// Equal when the codes are.
    public static func == (lhs: NDEFJSONError, rhs: NDEFJSONError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as equality compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `path: reason`, or the reason alone.
    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}
