import ISO7816

/// Why a PIV operation failed, naming the command and, for malformed answers, the field.
///
/// A struct with a stable ``Code-swift.struct`` (new codes never break callers) and the details
/// the code has. Two errors are equal when their code and details are.
public struct PIVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name, e.g. `wrongReference`.
        public var description: String { name }

        /// The card's answer is not what SP 800-73-4 describes.
        public static let malformedResponse = Code("malformedResponse")
        /// The card answered with a status word this client does not read as success.
        public static let status = Code("status")
        /// A wrong PIN or PUK (`63Cx`).
        public static let wrongReference = Code("wrongReference")
        /// The PIN or PUK has no tries left (`6983` or `63C0`).
        public static let blocked = Code("blocked")
        /// The command needs the PIN or the administration key first (`6982`).
        public static let securityStatusNotSatisfied = Code("securityStatusNotSatisfied")
        /// The card refused the administration key (its witness did not match).
        public static let managementKeyRejected = Code("managementKeyRejected")
        /// The card's answer to our challenge was wrong: it does not hold the administration key.
        public static let cardAuthenticationFailed = Code("cardAuthenticationFailed")
        /// An argument the caller gave cannot be sent.
        public static let invalidArgument = Code("invalidArgument")
        /// Something this client does not implement (e.g. 3DES administration keys).
        public static let unsupported = Code("unsupported")
    }

    /// What went wrong.
    public let code: Code
    /// The command that failed (`SELECT`, `GET DATA 5FC102`, …), when one did.
    public let command: String?
    /// The element of a malformed answer (`7C/82`).
    public let field: String?
    /// The byte in the response data where a malformed answer goes wrong, when known.
    public let offset: Int?
    /// The status word the card answered (``Code-swift.struct/status``).
    public let statusWord: StatusWord?
    /// The PIN or PUK (``Code-swift.struct/wrongReference``, ``Code-swift.struct/blocked``).
    public let reference: PIVReference?
    /// Tries left (``Code-swift.struct/wrongReference``).
    public let retriesLeft: Int?
    /// What was wrong, for people (malformed answers, arguments, what is unsupported).
    public let detail: String?

    init(
        _ code: Code, command: String? = nil, field: String? = nil, offset: Int? = nil, statusWord: StatusWord? = nil,
        reference: PIVReference? = nil, retriesLeft: Int? = nil, detail: String? = nil
    ) {
        self.code = code
        self.command = command
        self.field = field
        self.offset = offset
        self.statusWord = statusWord
        self.reference = reference
        self.retriesLeft = retriesLeft
        self.detail = detail
    }

    /// The card's answer to `command` is not what SP 800-73-4 describes: `field` names the
    /// element, `offset` (when known) the byte in the response data.
    public static func malformedResponse(command: String, field: String, offset: Int?, reason: String) -> PIVError {
        PIVError(.malformedResponse, command: command, field: field, offset: offset, detail: reason)
    }
    /// The card answered `command` with a status word this client does not read as success.
    public static func status(command: String, _ statusWord: StatusWord) -> PIVError {
        PIVError(.status, command: command, statusWord: statusWord)
    }
    /// A wrong PIN or PUK (`63Cx`); `retriesLeft` tries remain.
    public static func wrongReference(_ reference: PIVReference, retriesLeft: Int) -> PIVError {
        PIVError(.wrongReference, reference: reference, retriesLeft: retriesLeft)
    }
    /// The PIN or PUK has no tries left.
    public static func blocked(_ reference: PIVReference) -> PIVError {
        PIVError(.blocked, reference: reference, retriesLeft: 0)
    }
    /// `command` needs the PIN or the management key first (`6982`).
    public static func securityStatusNotSatisfied(command: String) -> PIVError {
        PIVError(.securityStatusNotSatisfied, command: command)
    }
    /// The card refused the administration key.
    public static let managementKeyRejected = PIVError(.managementKeyRejected)
    /// The card does not hold the administration key.
    public static let cardAuthenticationFailed = PIVError(.cardAuthenticationFailed)
    /// An argument the caller gave cannot be sent (`what` says which and why).
    public static func invalidArgument(_ what: String) -> PIVError { PIVError(.invalidArgument, detail: what) }
    /// Something this client does not implement.
    public static func unsupported(_ what: String) -> PIVError { PIVError(.unsupported, detail: what) }

    /// A one-line message for people naming the command, the field or status word, and the tries left where known.
    public var description: String {
        switch code {
        case .malformedResponse:
            "malformed \(command ?? "") response, \(field ?? "")\(offset.map { " at offset \($0)" } ?? ""): \(detail ?? "")"
        case .status: "\(command ?? "") failed with status \(statusWord.map { "\($0)" } ?? "")"
        case .wrongReference:
            "wrong \(reference.map { "\($0)" } ?? "PIN"), \(retriesLeft ?? 0) \(retriesLeft == 1 ? "try" : "tries") left"
        case .blocked: "the \(reference.map { "\($0)" } ?? "PIN") is blocked"
        case .securityStatusNotSatisfied: "\(command ?? "") needs the PIN or the management key first (6982)"
        case .managementKeyRejected: "the card rejected the management key"
        case .cardAuthenticationFailed: "the card's answer to the challenge is wrong: it does not hold this management key"
        default: detail ?? code.name
        }
    }
}

/// The card holder's reference data (SP 800-73-4 Part 1 Table 4b).
public enum PIVReference: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// The PIV card application PIN, key reference `80`.
    case pin = 0x80
    /// The PIN unblocking key, key reference `81`.
    case puk = 0x81

    /// `PIN` or `PUK`.
    public var description: String { self == .pin ? "PIN" : "PUK" }
}

/// A PIN's state as an empty VERIFY reports it.
public enum PIVPINStatus: Sendable, Hashable {
    /// Verified in this selection.
    case verified
    /// Not verified; this many tries remain.
    case notVerified(retriesLeft: Int)
    /// No tries left.
    case blocked
}
