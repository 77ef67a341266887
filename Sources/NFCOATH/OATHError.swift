import ISO7816

/// The commands of the YKOATH protocol, named in errors.
public enum OATHOperation: String, Sendable, Hashable, CustomStringConvertible {
    case select = "SELECT"
    case put = "PUT"
    case delete = "DELETE"
    case setCode = "SET CODE"
    case reset = "RESET"
    case rename = "RENAME"
    case list = "LIST"
    case calculate = "CALCULATE"
    case validate = "VALIDATE"
    case calculateAll = "CALCULATE ALL"
    case sendRemaining = "SEND REMAINING"

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
public enum OATHError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The applet answered a status word other than `9000`.
    case status(OATHStatus, StatusWord, OATHOperation)
    /// The response does not follow the YKOATH syntax; `offset` is into the response data.
    case malformedResponse(OATHOperation, offset: Int, String)
    /// An argument cannot be sent (a name too long, digits out of range, …).
    case invalidArgument(field: String, String)
    /// The applet's answer to our VALIDATE challenge is wrong: it does not hold our key.
    case cardAuthenticationFailed
    /// The applet is protected by an access code and none was given.
    case accessCodeRequired

    /// The status, when the applet answered one.
    public var oathStatus: OATHStatus? {
        if case .status(let status, _, _) = self { return status }
        return nil
    }

    public var description: String {
        switch self {
        case .status(let status, let word, let operation):
            "\(operation): \(status) (SW \(word))"
        case .malformedResponse(let operation, let offset, let reason):
            "\(operation): malformed response at offset \(offset): \(reason)"
        case .invalidArgument(let field, let reason):
            "\(field): \(reason)"
        case .cardAuthenticationFailed:
            "VALIDATE: the card's response to our challenge does not verify"
        case .accessCodeRequired:
            "the OATH application is protected by an access code; give the password"
        }
    }
}
