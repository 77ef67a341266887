/// A parsed JSON value that remembers where it was in the text, so that every error about it can
/// say where: the byte offset, and the line and column people look for.
public struct JSONNode: Sendable, Hashable {
    /// The value.
    public enum Value: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number as written (RFC 8259 §6 grammar), converted only when a type asks for it, so
        /// that `-1` for an unsigned field or `1.5` for an integer is an error, not a rounding.
        case number(String)
        /// A string, escapes resolved.
        case string(String)
        /// The elements, in order, each with its location.
        case array([JSONNode])
        /// Members in document order (duplicate names are refused by the parser).
        case object([(String, JSONNode)])

        /// Whether two values are equal: same kind and contents, numbers as written (`1.0` is not `1`),
        /// object members in order; nested nodes must also have equal locations.
        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case (.bool(let a), .bool(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            default: false
            }
        }

        /// Hashes the contents, object members in order.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .null: hasher.combine(0)
            case .bool(let b): hasher.combine(b)
            case .number(let n): hasher.combine(n)
            case .string(let s): hasher.combine(s)
            case .array(let a): hasher.combine(a)
            case .object(let o):
                for (key, value) in o {
                    hasher.combine(key)
                    hasher.combine(value)
                }
            }
        }
    }

    /// The parsed value; the values inside an array or object are nodes with their own locations.
    public var value: Value
    /// Where the value starts in the text.
    public var location: JSONLocation

    /// A node holding `value`, found at `location`.
    public init(_ value: Value, at location: JSONLocation) {
        self.value = value
        self.location = location
    }

    /// "an object", "a string", … for messages.
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "true or false"
        case .number(let n): "the number \(n)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// A place in JSON text: byte offset from 0, line and column from 1.
public struct JSONLocation: Sendable, Hashable, CustomStringConvertible {
    /// The byte offset in the text, from 0.
    public var offset: Int
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in bytes (UTF-8) from the start of the line.
    public var column: Int

    /// A location from its offset, line and column (not checked against each other).
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line L, column C, offset O`.
    public var description: String { "line \(line), column \(column), offset \(offset)" }
}

/// JSON that cannot be used: a syntax error (with its location) or a value of the wrong shape
/// (with its path, such as `tag.counters[0]`, and location).
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant (`syntax`, `missingField`…).
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }
        /// Not JSON: a syntax error, a truncated text, trailing text.
        public static let syntax = Code("syntax")
        /// A value of the wrong kind or out of range for its field.
        public static let invalidValue = Code("invalidValue")
        /// A required field is absent.
        public static let missingField = Code("missingField")
        /// A field the format does not have (a misspelling, usually).
        public static let unknownField = Code("unknownField")
        /// The document nests deeper than the parser allows.
        public static let tooDeep = Code("tooDeep")
    }

    /// What went wrong; the only part `==` compares.
    public let code: Code
    /// The field path (`tag.counters[0]`), empty for the document itself.
    public let path: String
    /// Where in the text the problem is; `nil` when no place can be given.
    public let location: JSONLocation?
    /// What was wrong, for people; match on ``code``, not on this text.
    public let reason: String

    /// An error with a code, the field path (empty by default: the document), a location and a reason.
    public init(_ code: Code, path: String = "", at location: JSONLocation?, _ reason: String) {
        self.code = code
        self.path = path
        self.location = location
        self.reason = reason
    }

    /// Whether two errors have the same code; path, location and reason are ignored.
    public static func == (lhs: JSONError, rhs: JSONError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as `==` compares only the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `path: reason at line L, column C, offset O`, without the path when it is empty and without the
    /// location when it is unknown.
    public var description: String {
        var text = path.isEmpty ? "" : "\(path): "
        text += reason
        if let location { text += " at \(location)" }
        return text
    }
}
