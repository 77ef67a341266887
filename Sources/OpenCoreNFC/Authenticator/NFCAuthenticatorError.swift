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
/// Errors raised by the exchange itself (an ``NFCReaderError`` from the tag other than a lost
/// connection, an `APDUError` for a malformed response) reach the command unchanged.
public enum NFCAuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command had no answer within its timeout; a later answer is discarded.
    case timedOut(after: Duration)
    /// ``NFCAuthenticator/cancelAll()``, the command's own cancellation, or the cancellation of
    /// the task awaiting it.
    case cancelled
    /// The tag left the field or stopped answering; every command queued for it fails too.
    /// Holds the reason the transport gave.
    case tagConnectionLost(String)
    /// ``NFCAuthenticator/restart()`` released the tag before the command completed.
    case pollingRestarted
    /// The reader session ended before the command completed.
    case sessionEnded(NFCAuthenticatorEndReason)
    /// The authenticator was never started: call ``NFCAuthenticator/start(alertMessage:)`` first.
    case notStarted

    /// The Core NFC code this failure corresponds to, where Core NFC has one.
    public var readerErrorCode: NFCReaderError.Code? {
        switch self {
        case .timedOut, .cancelled, .notStarted: nil
        case .tagConnectionLost: .readerTransceiveErrorTagConnectionLost
        case .pollingRestarted: .readerTransceiveErrorTagNotConnected
        case .sessionEnded(let reason): reason.readerErrorCode
        }
    }

    /// This failure as Core NFC's error, where Core NFC has a code for it.
    public var readerError: NFCReaderError? {
        readerErrorCode.map { NFCReaderError($0, reason: description) }
    }

    public var description: String {
        switch self {
        case .timedOut(let duration): "the command had no answer within \(duration)"
        case .cancelled: "the command was cancelled"
        case .tagConnectionLost(let reason): "the connection to the tag was lost: \(reason)"
        case .pollingRestarted: "polling restarted before the command completed"
        case .sessionEnded(let reason): "the reader session ended (\(reason)) before the command completed"
        case .notStarted: "the authenticator is not started"
        }
    }
}

extension NFCReaderError {
    /// The failure reason given when the error was made, or the code's description.
    var failureReasonText: String {
        (userInfo["NSLocalizedFailureReason"] as? String) ?? code.defaultDescription
    }
}
