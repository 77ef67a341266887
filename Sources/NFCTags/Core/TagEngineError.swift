import NFCTransport

/// Why a tag operation failed, with what and where.
///
/// A struct around an extensible ``Code`` (as `NDEFError`): equal when the codes are. The
/// transport's own failures keep their `TransportError` in ``transport``.
public struct TagEngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is: a named code, equal to another when the names are.
    ///
    /// A struct with static constants rather than an enum, so that new codes do not break callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant (`tagLost`, `readOnly`…).
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The tag left the field.
        public static let tagLost = Code("tagLost")
        /// The tag did not answer in time.
        public static let timeout = Code("timeout")
        /// Any other transport failure (see ``TagEngineError/transport``).
        public static let transport = Code("transport")
        /// The tag refused a command: a NAK, an ISO 15693 error flag, a FeliCa status flag, an
        /// ISO 7816 status word other than success (see ``TagEngineError/tagStatus``).
        public static let tagError = Code("tagError")
        /// An answer of the wrong length or shape.
        public static let unexpectedResponse = Code("unexpectedResponse")
        /// The tag is not NDEF-formatted (no valid CC, attribute block, NDEF application) or its
        /// technology has no NDEF mapping.
        public static let notFormatted = Code("notFormatted")
        /// The capability container or attribute block holds values out of range.
        public static let invalidCapabilityContainer = Code("invalidCapabilityContainer")
        /// The TLV area or the NDEF length is inconsistent with the tag's memory.
        public static let invalidNDEFArea = Code("invalidNDEFArea")
        /// The tag is read-only.
        public static let readOnly = Code("readOnly")
        /// The message does not fit the tag.
        public static let capacityExceeded = Code("capacityExceeded")
        /// The operation needs a password (or the password was refused).
        public static let authenticationFailed = Code("authenticationFailed")
        /// The tag cannot do this (format a card without standard commands, lock a tag without
        /// lock bits, a command the reader cannot carry).
        public static let unsupported = Code("unsupported")
        /// The tag is already formatted (format refuses to erase data).
        public static let alreadyFormatted = Code("alreadyFormatted")
    }

    /// What kind of failure this is; the only part `==` compares.
    public let code: Code
    /// What failed and why, for people (the command, the values seen); match on ``code``, not on this text.
    public let reason: String
    /// The transport failure behind a `tagLost`, `timeout` or `transport` error.
    public let transport: TransportError?
    /// The tag's own error answer (NAK code, error code, status flags, status word) as bytes.
    public let tagStatus: [UInt8]?

    /// An error with a code, a reason and, optionally, the tag's error answer; ``transport`` is `nil`.
    public init(_ code: Code, _ reason: String, tagStatus: [UInt8]? = nil) {
        self.code = code
        self.reason = reason
        self.transport = nil
        self.tagStatus = tagStatus
    }

    /// Wraps a transport failure.
    public init(transport error: TransportError) {
        switch error.code {
        case .tagLost: code = .tagLost
        case .timeout: code = .timeout
        default: code = .transport
        }
        reason = error.description
        transport = error
        tagStatus = nil
    }

    /// Whether two errors have the same code; reason, transport failure and tag status are ignored.
    public static func == (lhs: TagEngineError, rhs: TagEngineError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, as `==` compares only the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The code's name and the reason, as `name: reason`.
    public var description: String { "\(code.name): \(reason)" }
}
