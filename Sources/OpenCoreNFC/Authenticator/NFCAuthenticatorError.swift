import Foundation

/// Why an ``NFCAuthenticator``'s reader session ended.
public enum NFCAuthenticatorEndReason: Sendable, Hashable, CustomStringConvertible {
    /// The app called ``NFCAuthenticator/stop()`` or ``NFCAuthenticator/stop(errorMessage:)``.
    case stopped
    /// The session was cancelled without the authenticator asking (on iOS: the user's Cancel
    /// button), `readerSessionInvalidationErrorUserCanceled`.
    case userCanceled
    /// The session reached its time limit (60 s in Core NFC),
    /// `readerSessionInvalidationErrorSessionTimeout`.
    case sessionTimeout
    /// Any other end: the session could not start (no reader, the app's configuration, another
    /// session active) or ended unexpectedly. Holds the session's error.
    case failed(NFCReaderError)

    /// The Core NFC code this reason stands for.
    public var readerErrorCode: NFCReaderError.Code {
        switch self {
        case .stopped, .userCanceled: .readerSessionInvalidationErrorUserCanceled
        case .sessionTimeout: .readerSessionInvalidationErrorSessionTimeout
        case .failed(let error): error.code
        }
    }

    /// The reason the session's invalidation error gives.
    init(sessionError error: any Error) {
        guard let error = error as? NFCReaderError else {
            self = .failed(NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, reason: "\(error)"))
            return
        }
        switch error.code {
        case .readerSessionInvalidationErrorUserCanceled: self = .userCanceled
        case .readerSessionInvalidationErrorSessionTimeout: self = .sessionTimeout
        default: self = .failed(error)
        }
    }

    /// A short English phrase for logs and messages, e.g. "the session timed out".
    public var description: String {
        switch self {
        case .stopped: "stopped by the app"
        case .userCanceled: "cancelled"
        case .sessionTimeout: "the session timed out"
        case .failed(let error): "the session ended: \(error.localizedDescription) (\(error.code.rawValue))"
        }
    }
}

/// How a command given to an ``NFCAuthenticator`` failed without an answer from the card.
///
/// A struct with an open set of ``Code``s (new codes do not break callers); the fields that
/// matter for a code are set, the others nil. Match with `error.code == .timedOut`, or compare
/// with the factory values (`error == .sessionEnded(.sessionTimeout)`).
///
/// Errors raised by the exchange itself (an ``NFCReaderError`` from the tag other than a lost
/// connection, an `APDUError` for a malformed response) reach the command unchanged.
public struct NFCAuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `timedOut`.
        public let description: String
        private init(_ name: String) { self.description = name }

        /// The command had no answer within its timeout; a later answer is discarded.
        public static let timedOut = Code("timedOut")
        /// ``NFCAuthenticator/cancelAll()``, ``NFCAuthenticator/cancel(_:)``, or the
        /// cancellation of the task awaiting the command.
        public static let cancelled = Code("cancelled")
        /// The tag left the field or stopped answering; every command queued for it fails too.
        public static let tagConnectionLost = Code("tagConnectionLost")
        /// ``NFCAuthenticator/restart()`` released the tag before the command completed.
        public static let pollingRestarted = Code("pollingRestarted")
        /// The reader session ended before the command completed.
        public static let sessionEnded = Code("sessionEnded")
        /// The authenticator was never started.
        public static let notStarted = Code("notStarted")
    }

    /// What went wrong; compare with the ``Code`` constants.
    public let code: Code
    /// ``Code/timedOut``: the command's timeout.
    public let timeout: Duration?
    /// ``Code/sessionEnded``: why the session ended.
    public let endReason: NFCAuthenticatorEndReason?
    /// ``Code/tagConnectionLost``: the reason the transport gave.
    public let transportReason: String?

    init(_ code: Code, timeout: Duration? = nil, endReason: NFCAuthenticatorEndReason? = nil, transportReason: String? = nil) {
        self.code = code
        self.timeout = timeout
        self.endReason = endReason
        self.transportReason = transportReason
    }

    /// The command had no answer within `timeout`.
    public static func timedOut(after timeout: Duration) -> Self { Self(.timedOut, timeout: timeout) }
    /// The command was cancelled.
    public static let cancelled = Self(.cancelled)
    /// The tag was lost; `reason` is the transport's.
    public static func tagConnectionLost(_ reason: String) -> Self { Self(.tagConnectionLost, transportReason: reason) }
    /// ``NFCAuthenticator/restart()`` released the tag.
    public static let pollingRestarted = Self(.pollingRestarted)
    /// The session ended for `reason`.
    public static func sessionEnded(_ reason: NFCAuthenticatorEndReason) -> Self { Self(.sessionEnded, endReason: reason) }
    /// The authenticator was never started: call ``NFCAuthenticator/start(alertMessage:)`` first.
    public static let notStarted = Self(.notStarted)

    /// The Core NFC code this failure corresponds to, where Core NFC has one.
    public var readerErrorCode: NFCReaderError.Code? {
        switch code {
        case .tagConnectionLost: .readerTransceiveErrorTagConnectionLost
        case .pollingRestarted: .readerTransceiveErrorTagNotConnected
        case .sessionEnded: endReason?.readerErrorCode
        default: nil
        }
    }

    /// This failure as Core NFC's error, where Core NFC has a code for it.
    public var readerError: NFCReaderError? {
        readerErrorCode.map { NFCReaderError($0, reason: description) }
    }

    /// An English phrase saying what happened, with the timeout, transport reason or end reason where the code has one.
    public var description: String {
        switch code {
        case .timedOut: "the command had no answer within \(timeout ?? .zero)"
        case .cancelled: "the command was cancelled"
        case .tagConnectionLost: "the connection to the tag was lost: \(transportReason ?? "no reason given")"
        case .pollingRestarted: "polling restarted before the command completed"
        case .sessionEnded: "the reader session ended (\(endReason?.description ?? "no reason given")) before the command completed"
        case .notStarted: "the authenticator is not started"
        default: "authenticator error \(code)"
        }
    }
}

extension NFCAuthenticatorError.Code {
    /// Matches a thrown error against a code: `catch NFCAuthenticatorError.Code.timedOut { … }`.
    public static func ~= (match: NFCAuthenticatorError.Code, error: any Error) -> Bool {
        (error as? NFCAuthenticatorError)?.code == match
    }
}

extension NFCReaderError {
    /// The failure reason given when the error was made, or the code's description.
    var failureReasonText: String {
        (userInfo["NSLocalizedFailureReason"] as? String) ?? code.defaultDescription
    }
}
