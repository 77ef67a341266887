import ISO7816

/// The commands of the YKOATH protocol, named in errors.
public enum OATHOperation: String, Sendable, Hashable, CustomStringConvertible {
    /// SELECT (`A4 04`) of the OATH application.
    case select = "SELECT"
    /// PUT (`01`): store a credential.
    case put = "PUT"
    /// DELETE (`02`): remove a credential.
    case delete = "DELETE"
    /// SET CODE (`03`): set or remove the access code.
    case setCode = "SET CODE"
    /// RESET (`04`): remove every credential and the access code.
    case reset = "RESET"
    /// RENAME (`05`): change a credential's name.
    case rename = "RENAME"
    /// LIST (`A1`): the credentials' names, types and algorithms.
    case list = "LIST"
    /// CALCULATE (`A2`): one credential's response to a challenge.
    case calculate = "CALCULATE"
    /// VALIDATE (`A3`): prove knowledge of the access code.
    case validate = "VALIDATE"
    /// CALCULATE ALL (`A4`): every credential, with its code for one challenge where the key gives one.
    case calculateAll = "CALCULATE ALL"
    /// SEND REMAINING (`A5`): the next part of a long response.
    case sendRemaining = "SEND REMAINING"

    /// The command as YKOATH names it, e.g. `CALCULATE ALL`.
    public var description: String { rawValue }
}

/// What a status word other than `9000` means for an OATH command (YKOATH response codes).
public enum OATHStatus: Sendable, Hashable, CustomStringConvertible {
    /// `6982`: an access code is set and the session has not been validated.
    case authenticationRequired
    /// `6984`: no credential of that name (DELETE, CALCULATE, RENAME), or no access code to
    /// validate against (VALIDATE).
    case noSuchObject
    /// `6A80`: the command's data is malformed — or, for VALIDATE and SET CODE, the response
    /// to the challenge does not match (a wrong access code).
    case wrongSyntax
    /// `6A84`: no room for another credential.
    case noSpace
    /// `6581`: memory failure.
    case memoryFailure
    /// `6700`: wrong length.
    case wrongLength
    /// `6985`: conditions of use not satisfied (e.g. VALIDATE without a fresh challenge).
    case conditionsNotSatisfied
    /// `6A82` / `6999`: the OATH application is not on the card.
    case applicationNotFound
    /// `6D00`: instruction not supported.
    case instructionNotSupported
    /// `6A86` / `6B00`: wrong P1-P2.
    case wrongParameters
    /// Any other status word.
    case other(StatusWord)

    /// The meaning of `statusWord`; words without a YKOATH meaning become ``other(_:)``.
    public init(_ statusWord: StatusWord) {
        switch statusWord.rawValue {
        case 0x6982: self = .authenticationRequired
        case 0x6984: self = .noSuchObject
        case 0x6A80: self = .wrongSyntax
        case 0x6A84: self = .noSpace
        case 0x6581: self = .memoryFailure
        case 0x6700: self = .wrongLength
        case 0x6985: self = .conditionsNotSatisfied
        case 0x6A82, 0x6999: self = .applicationNotFound
        case 0x6D00: self = .instructionNotSupported
        case 0x6A86, 0x6B00: self = .wrongParameters
        default: self = .other(statusWord)
        }
    }

    /// The meaning in a few words, e.g. `no such object`, or `status XXXX` for ``other(_:)``.
    public var description: String {
        switch self {
        case .authenticationRequired: "authentication required"
        case .noSuchObject: "no such object"
        case .wrongSyntax: "wrong syntax"
        case .noSpace: "no space"
        case .memoryFailure: "memory failure"
        case .wrongLength: "wrong length"
        case .conditionsNotSatisfied: "conditions of use not satisfied"
        case .applicationNotFound: "OATH application not found"
        case .instructionNotSupported: "instruction not supported"
        case .wrongParameters: "wrong P1-P2"
        case .other(let word): "status \(word)"
        }
    }
}

/// Why an OATH operation failed. Never holds a secret (no key, password or response bytes).
///
/// A struct with a stable ``Code-swift.struct`` and the details the code has; two errors are
/// equal when their code and details are.
public struct OATHError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// The applet answered a status word other than `9000` (``OATHError/oathStatus``).
        public static let status = Code("status")
        /// The response does not follow the YKOATH syntax.
        public static let malformedResponse = Code("malformedResponse")
        /// An argument cannot be sent (a name too long, digits out of range, …).
        public static let invalidArgument = Code("invalidArgument")
        /// The applet's answer to our VALIDATE challenge is wrong: it does not hold our key.
        public static let cardAuthenticationFailed = Code("cardAuthenticationFailed")
        /// The applet is protected by an access code and none was given.
        public static let accessCodeRequired = Code("accessCodeRequired")
    }

    /// What went wrong.
    public let code: Code
    /// The status the applet answered (``Code-swift.struct/status``).
    public let oathStatus: OATHStatus?
    /// The status word itself (``Code-swift.struct/status``).
    public let statusWord: StatusWord?
    /// The command that failed.
    public let operation: OATHOperation?
    /// Where a malformed response goes wrong, as an offset into the response data.
    public let offset: Int?
    /// The argument that cannot be sent (``Code-swift.struct/invalidArgument``).
    public let field: String?
    /// What was wrong, for people.
    public let detail: String?

    init(
        _ code: Code, oathStatus: OATHStatus? = nil, statusWord: StatusWord? = nil, operation: OATHOperation? = nil,
        offset: Int? = nil, field: String? = nil, detail: String? = nil
    ) {
        self.code = code
        self.oathStatus = oathStatus
        self.statusWord = statusWord
        self.operation = operation
        self.offset = offset
        self.field = field
        self.detail = detail
    }

    /// The applet answered a status word other than `9000` to `operation`.
    public static func status(_ status: OATHStatus, _ statusWord: StatusWord, _ operation: OATHOperation) -> OATHError {
        OATHError(.status, oathStatus: status, statusWord: statusWord, operation: operation)
    }
    /// The response to `operation` does not follow the YKOATH syntax; `offset` is into the response data.
    public static func malformedResponse(_ operation: OATHOperation, offset: Int, _ reason: String) -> OATHError {
        OATHError(.malformedResponse, operation: operation, offset: offset, detail: reason)
    }
    /// An argument cannot be sent.
    public static func invalidArgument(field: String, _ reason: String) -> OATHError {
        OATHError(.invalidArgument, field: field, detail: reason)
    }
    /// The applet does not hold our key.
    public static let cardAuthenticationFailed = OATHError(.cardAuthenticationFailed)
    /// An access code is needed and none was given.
    public static let accessCodeRequired = OATHError(.accessCodeRequired)

    /// One line for people: the command and what went wrong (status and status word, offset, argument); never a secret.
    public var description: String {
        switch code {
        case .status:
            "\(operation.map { "\($0)" } ?? ""): \(oathStatus.map { "\($0)" } ?? "") (SW \(statusWord.map { "\($0)" } ?? ""))"
        case .malformedResponse:
            "\(operation.map { "\($0)" } ?? ""): malformed response at offset \(offset ?? 0): \(detail ?? "")"
        case .invalidArgument:
            "\(field ?? ""): \(detail ?? "")"
        case .cardAuthenticationFailed:
            "VALIDATE: the card's response to our challenge does not verify"
        case .accessCodeRequired:
            "the OATH application is protected by an access code; give the password"
        default:
            detail ?? code.name
        }
    }
}
