/// Why a DESFire-family operation failed, with what and where.
///
/// A struct around an extensible ``Code`` (as `TagEngineError` and `NDEFError`): equal when the
/// codes are.
public struct DESFireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is: a named code, equal to another when the names are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A message (a SUN URL, its parameters) that is not what the chip produces: a missing
        /// or malformed parameter, a length the chip never sends.
        public static let malformedMessage = Code("malformedMessage")
        /// A key of the wrong length, or one that decrypts the PICC data into something the chip
        /// never encrypts (a wrong SDM meta read key).
        public static let wrongKey = Code("wrongKey")
    }

    /// What kind of failure this is; the only part `==` compares.
    public let code: Code
    /// What failed and why, for people; match on ``code``, not on this text.
    public let reason: String

    /// An error with a code and a reason.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Equal when the codes are.
    public static func == (lhs: DESFireError, rhs: DESFireError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }
}
