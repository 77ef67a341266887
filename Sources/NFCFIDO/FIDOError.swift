import ISO7816
import NFCCBOR

/// Why a FIDO exchange failed: what, and where.
public enum FIDOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SELECT of the FIDO AID was refused, or answered neither "U2F_V2" nor "FIDO_2_0".
    case notAFIDOAuthenticator(StatusWord, answer: [UInt8])
    /// A command answered a status word it should not have (`command` names it).
    case unexpectedStatus(StatusWord, command: String)
    /// The authenticator answered a CTAP2 error status.
    case ctap2(CTAP2Status, command: String)
    /// A response was not CTAP2 canonical CBOR.
    case invalidCBOR(CBORError, command: String)
    /// A response field is missing, of the wrong type or length (`field` names it).
    case malformedResponse(field: String, reason: String)
    /// A signature or MAC did not verify.
    case verificationFailed(String)
    /// A request the client refuses to send (bad PIN length, unsupported protocol).
    case invalidRequest(String)
    /// More `9100` status updates than the client waits for.
    case tooManyStatusUpdates(Int)

    public var description: String {
        switch self {
        case .notAFIDOAuthenticator(let sw, let answer):
            "not a FIDO authenticator: SELECT answered SW \(sw) with \(answer.count) byte(s)"
        case .unexpectedStatus(let sw, let command): "\(command): unexpected status word \(sw)"
        case .ctap2(let status, let command): "\(command): \(status.name) (0x\(String(status.rawValue, radix: 16, uppercase: true)))"
        case .invalidCBOR(let error, let command): "\(command): \(error)"
        case .malformedResponse(let field, let reason): "malformed response: \(field): \(reason)"
        case .verificationFailed(let what): "verification failed: \(what)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .tooManyStatusUpdates(let count): "the authenticator sent more than \(count) status updates"
        }
    }
}
