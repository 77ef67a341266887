import ISO7816
import NFCCBOR

/// Why a FIDO exchange failed: what (``code``), where (``field``: the command or response field)
/// and the typed facts (status word, CTAP2 status, CBOR error).
///
/// Equality compares the code and the typed facts, never the free text, so new codes and
/// wording never break callers.
public struct FIDOError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `ctap2`.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// SELECT of the FIDO AID was refused, or answered neither "U2F_V2" nor "FIDO_2_0".
        public static let notAFIDOAuthenticator = Code("notAFIDOAuthenticator")
        /// A command answered a status word it should not have.
        public static let unexpectedStatus = Code("unexpectedStatus")
        /// The authenticator answered a CTAP2 error status.
        public static let ctap2 = Code("ctap2")
        /// A response was not CTAP2 canonical CBOR.
        public static let invalidCBOR = Code("invalidCBOR")
        /// A response field is missing, of the wrong type or length.
        public static let malformedResponse = Code("malformedResponse")
        /// A signature did not verify.
        public static let verificationFailed = Code("verificationFailed")
        /// A request the client refuses to send (a PIN too short, a hash of the wrong length).
        public static let invalidRequest = Code("invalidRequest")
        /// More `9100` status updates than the client waits for.
        public static let tooManyStatusUpdates = Code("tooManyStatusUpdates")
    }

    /// What went wrong.
    public let code: Code
    /// The command (`authenticatorGetInfo`, `clientPIN.getPinUvAuthToken`, `U2F REGISTER`) or
    /// response field (`authData.credentialId`) concerned.
    public let field: String?
    /// The status word, for ``Code-swift.struct/notAFIDOAuthenticator`` and ``Code-swift.struct/unexpectedStatus``.
    public let statusWord: StatusWord?
    /// The CTAP2 status byte, for ``Code-swift.struct/ctap2``.
    public let ctap2Status: CTAP2Status?
    /// The decoder's error, for ``Code-swift.struct/invalidCBOR``.
    public let cborError: CBORError?
    /// For people; never holds a secret.
    public let reason: String

    /// An error with its code, the field concerned, the typed facts and a reason for people (never a secret).
    public init(
        _ code: Code, field: String? = nil, statusWord: StatusWord? = nil, ctap2Status: CTAP2Status? = nil, cborError: CBORError? = nil,
        _ reason: String
    ) {
        self.code = code
        self.field = field
        self.statusWord = statusWord
        self.ctap2Status = ctap2Status
        self.cborError = cborError
        self.reason = reason
    }

    /// Equal when the code, status word, CTAP2 status and CBOR error are; the field and reason are ignored.
    public static func == (lhs: FIDOError, rhs: FIDOError) -> Bool {
        lhs.code == rhs.code && lhs.statusWord == rhs.statusWord && lhs.ctap2Status == rhs.ctap2Status && lhs.cborError == rhs.cborError
    }

    /// Hashes the code, status word and CTAP2 status (part of what ``==(_:_:)`` compares, so equal errors hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(statusWord)
        hasher.combine(ctap2Status)
    }

    /// SELECT answered `sw`, or data that is not a version this client knows; only the data's length is kept.
    public static func notAFIDOAuthenticator(_ sw: StatusWord, answer: [UInt8]) -> FIDOError {
        FIDOError(.notAFIDOAuthenticator, field: "SELECT", statusWord: sw, "SELECT answered SW \(sw) with \(answer.count) byte(s)")
    }

    /// `command` answered status word `sw` where it should not have.
    public static func unexpectedStatus(_ sw: StatusWord, command: String) -> FIDOError {
        FIDOError(.unexpectedStatus, field: command, statusWord: sw, "unexpected status word \(sw)")
    }

    /// `command` answered the CTAP2 error `status`.
    public static func ctap2(_ status: CTAP2Status, command: String) -> FIDOError {
        FIDOError(.ctap2, field: command, ctap2Status: status, "\(status.name) (0x\(String(status.rawValue, radix: 16, uppercase: true)))")
    }

    /// The CBOR of `command`'s answer (or of a field in it) did not decode.
    public static func invalidCBOR(_ error: CBORError, command: String) -> FIDOError {
        FIDOError(.invalidCBOR, field: command, cborError: error, error.description)
    }

    /// A response `field` is missing, of the wrong type or length; `reason` says how.
    public static func malformedResponse(field: String, reason: String) -> FIDOError {
        FIDOError(.malformedResponse, field: field, "malformed response: \(reason)")
    }

    /// A signature did not verify; `what` names it.
    public static func verificationFailed(_ what: String) -> FIDOError {
        FIDOError(.verificationFailed, "verification failed: \(what)")
    }

    /// The client refuses to send a request; `reason` says why.
    public static func invalidRequest(_ reason: String) -> FIDOError {
        FIDOError(.invalidRequest, "invalid request: \(reason)")
    }

    /// The authenticator sent more than `count` `9100` status updates.
    public static func tooManyStatusUpdates(_ count: Int) -> FIDOError {
        FIDOError(.tooManyStatusUpdates, "the authenticator sent more than \(count) status updates")
    }

    /// One line for people: the field (when there is one) and the reason.
    public var description: String {
        switch code {
        case .notAFIDOAuthenticator: "not a FIDO authenticator: \(reason)"
        case .verificationFailed, .invalidRequest, .tooManyStatusUpdates: reason
        default: field.map { "\($0): \(reason)" } ?? reason
        }
    }
}
