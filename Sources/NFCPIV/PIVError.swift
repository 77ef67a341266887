import ISO7816

/// Why a PIV operation failed, naming the command and, for malformed answers, the field.
public enum PIVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The card's answer to `command` is not what SP 800-73-4 describes: `field` names the
    /// element, `offset` (when known) the byte in the response data.
    case malformedResponse(command: String, field: String, offset: Int?, reason: String)
    /// The card answered `command` with a status word this client does not read as success.
    case status(command: String, StatusWord)
    /// A wrong PIN or PUK (`63Cx`); `retriesLeft` tries remain.
    case wrongReference(PIVReference, retriesLeft: Int)
    /// The PIN or PUK has no tries left (`6983` or `63C0`).
    case blocked(PIVReference)
    /// The command needs the PIN or the administration key first (`6982`).
    case securityStatusNotSatisfied(command: String)
    /// The card refused the administration key (its witness did not match).
    case managementKeyRejected
    /// The card's answer to our challenge was wrong: it does not hold the administration key.
    case cardAuthenticationFailed
    /// An argument the caller gave cannot be sent (`what` says which and why).
    case invalidArgument(String)
    /// Something this client does not implement (e.g. 3DES administration keys).
    case unsupported(String)

    public var description: String {
        switch self {
        case .malformedResponse(let command, let field, let offset, let reason):
            "malformed \(command) response, \(field)\(offset.map { " at offset \($0)" } ?? ""): \(reason)"
        case .status(let command, let statusWord): "\(command) failed with status \(statusWord)"
        case .wrongReference(let reference, let retriesLeft): "wrong \(reference), \(retriesLeft) \(retriesLeft == 1 ? "try" : "tries") left"
        case .blocked(let reference): "the \(reference) is blocked"
        case .securityStatusNotSatisfied(let command): "\(command) needs the PIN or the management key first (6982)"
        case .managementKeyRejected: "the card rejected the management key"
        case .cardAuthenticationFailed: "the card's answer to the challenge is wrong: it does not hold this management key"
        case .invalidArgument(let what): what
        case .unsupported(let what): what
        }
    }
}

/// The card holder's reference data (SP 800-73-4 Part 1 Table 4b).
public enum PIVReference: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// The PIV card application PIN, key reference `80`.
    case pin = 0x80
    /// The PIN unblocking key, key reference `81`.
    case puk = 0x81

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
