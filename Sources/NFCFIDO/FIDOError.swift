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
        public let name: String
        private init(_ name: String) { self.name = name }
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

    public let code: Code
    /// The command (`authenticatorGetInfo`, `clientPIN.getPinUvAuthToken`, `U2F REGISTER`) or
    /// response field (`authData.credentialId`) concerned.
    public let field: String?
    public let statusWord: StatusWord?
    public let ctap2Status: CTAP2Status?
    public let cborError: CBORError?
    /// For people; never holds a secret.
    public let reason: String

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

    public static func == (lhs: FIDOError, rhs: FIDOError) -> Bool {
        lhs.code == rhs.code && lhs.statusWord == rhs.statusWord && lhs.ctap2Status == rhs.ctap2Status && lhs.cborError == rhs.cborError
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(statusWord)
        hasher.combine(ctap2Status)
    }

    public static func notAFIDOAuthenticator(_ sw: StatusWord, answer: [UInt8]) -> FIDOError {
        FIDOError(.notAFIDOAuthenticator, field: "SELECT", statusWord: sw, "SELECT answered SW \(sw) with \(answer.count) byte(s)")
    }

    public static func unexpectedStatus(_ sw: StatusWord, command: String) -> FIDOError {
        FIDOError(.unexpectedStatus, field: command, statusWord: sw, "unexpected status word \(sw)")
    }

    public static func ctap2(_ status: CTAP2Status, command: String) -> FIDOError {
        FIDOError(.ctap2, field: command, ctap2Status: status, "\(status.name) (0x\(String(status.rawValue, radix: 16, uppercase: true)))")
    }

    public static func invalidCBOR(_ error: CBORError, command: String) -> FIDOError {
        FIDOError(.invalidCBOR, field: command, cborError: error, error.description)
    }

    public static func malformedResponse(field: String, reason: String) -> FIDOError {
        FIDOError(.malformedResponse, field: field, "malformed response: \(reason)")
    }

    public static func verificationFailed(_ what: String) -> FIDOError {
        FIDOError(.verificationFailed, "verification failed: \(what)")
    }

    public static func invalidRequest(_ reason: String) -> FIDOError {
        FIDOError(.invalidRequest, "invalid request: \(reason)")
    }

    public static func tooManyStatusUpdates(_ count: Int) -> FIDOError {
        FIDOError(.tooManyStatusUpdates, "the authenticator sent more than \(count) status updates")
    }

    public var description: String {
        switch code {
        case .notAFIDOAuthenticator: "not a FIDO authenticator: \(reason)"
        case .verificationFailed, .invalidRequest, .tooManyStatusUpdates: reason
        default: field.map { "\($0): \(reason)" } ?? reason
        }
    }
}
