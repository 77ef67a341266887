/// An error from a reader driver or a tag connection.
///
/// A small struct around an extensible ``Code`` (as `NDEFError`): equal when the codes are, with a
/// human-readable reason saying what and where.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `tagLost`; codes are equal when their names are.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's ``name``.
        public var description: String { name }

        /// The tag left the field (or was pulled out during the exchange).
        public static let tagLost = Code("tagLost")
        /// The tag did not answer within the timeout (or the frame waiting time).
        public static let timeout = Code("timeout")
        /// The answer arrived damaged (CRC or parity error, a bit collision).
        public static let transmission = Code("transmission")
        /// The answer broke the protocol (a malformed ATS, an ISO-DEP block out of sequence).
        public static let protocolViolation = Code("protocolViolation")
        /// The connection was closed, or the target was never connected.
        public static let notConnected = Code("notConnected")
        /// The reader cannot carry this command (e.g. a native command through a reader that only
        /// offers PC/SC pseudo-APDUs).
        public static let unsupportedCommand = Code("unsupportedCommand")
        /// The command or its expected answer exceeds what one exchange may carry (see ``ExchangeLimits``).
        public static let frameTooLong = Code("frameTooLong")
        /// No such target in the field or no such reader.
        public static let noSuchTarget = Code("noSuchTarget")
        /// The reader service is missing or not running (e.g. pcscd).
        public static let serviceUnavailable = Code("serviceUnavailable")
        /// The reader was unplugged.
        public static let readerRemoved = Code("readerRemoved")
        /// Another process holds the reader or card exclusively.
        public static let sharingViolation = Code("sharingViolation")
        /// The operation was cancelled.
        public static let cancelled = Code("cancelled")
    }

    /// What went wrong; compare with the ``Code`` constants.
    public let code: Code
    /// What happened, for people.
    public let reason: String

    /// Makes an error with `code`; `reason` says what happened and where (empty by default).
    public init(_ code: Code, _ reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Compares the codes only; the reasons are ignored.
    public static func == (lhs: TransportError, rhs: TransportError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `name: reason`, or the code's name alone when the reason is empty.
    public var description: String { reason.isEmpty ? code.name : "\(code.name): \(reason)" }
}
