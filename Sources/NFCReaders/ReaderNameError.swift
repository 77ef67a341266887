/// A reader name that cannot be used: malformed, or naming a backend this build lacks.
///
/// A struct around an extensible ``Code-swift.struct`` (as `TransportError`): equal when the codes
/// are, with a reason saying what was wrong.
public struct ReaderNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name (printed in JSON errors).
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// The name is empty.
        public static let empty = Code("empty")
        /// `sim:` or `pcsc:` with nothing after the colon.
        public static let missingArgument = Code("missingArgument")
        /// What follows the scheme is not something it takes (a serial speed `pn532:` does not know).
        public static let invalidArgument = Code("invalidArgument")
        /// A backend this build does not include: a reserved scheme, or the simulator or PC/SC
        /// with its package trait disabled.
        public static let unsupportedBackend = Code("unsupportedBackend")
        /// The backend exists but cannot be used here (no PC/SC library; an unreadable image).
        public static let unavailable = Code("unavailable")
    }

    /// What was wrong.
    public let code: Code
    /// What was wrong, for people.
    public let reason: String

    /// An error with its code and reason.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Equal when the codes are.
    public static func == (lhs: ReaderNameError, rhs: ReaderNameError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as equality compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// The text for people.
    public var description: String { reason }
}
