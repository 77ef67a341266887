/// Why a TDEA operation refused its input: a key or block of the wrong length.
///
/// A struct around an extensible ``Code``, as the project's other errors: equal when the codes are.
public struct TripleDESError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A key that is not 8, 16 or 24 bytes.
        public static let keyLength = Code("keyLength")
        /// A block or IV that is not 8 bytes, or CBC data that is not whole blocks.
        public static let blockLength = Code("blockLength")
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong, in words.
    public let message: String

    /// An error of a kind, with what was wrong.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }

    /// Equal when the codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
