import Foundation

/// An error from a reader session or a tag operation, as Core NFC's bridged `NFCReaderError`.
///
/// Sessions and tags hand out values of this type, so `(error as? NFCReaderError)?.code` and
/// `catch NFCReaderError.readerSessionInvalidationErrorUserCanceled` work as on iOS. Bridged to
/// `NSError`, it has the domain ``NFCErrorDomain`` and the code's raw value; its
/// `localizedDescription` is the `NSLocalizedDescriptionKey` of ``userInfo`` when present, a
/// short description of ``code`` otherwise.
@available(iOS 11.0, *)
public struct NFCReaderError: CustomNSError, LocalizedError, Hashable, Sendable {
    /// The error as an `NSError`, holding the code and ``userInfo`` exactly as given.
    public let _nsError: NSError

    /// Wraps an `NSError` of the ``NFCErrorDomain`` domain whose code is a known ``Code``.
    ///
    /// Passing any other error is an API violation and traps, as on iOS.
    public init(_nsError error: NSError) {
        precondition(  // trap-ok: API violation by the caller, as Apple's bridging traps
            error.domain == NFCErrorDomain && Code(rawValue: error.code) != nil,
            "API violation: NFCReaderError(_nsError:) needs an \(NFCErrorDomain) error with a known code, got \(error.domain) \(error.code)"
        )
        self._nsError = error
    }

    /// Creates an error with a code and optional extra information.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self._nsError = NSError(domain: NFCErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// What went wrong.
    public var code: Code {
        // The initializers admit known codes only; the fallback is never taken.
        Code(rawValue: _nsError.code) ?? .readerErrorUnsupportedFeature
    }

    /// The extra information given when the error was made.
    public var userInfo: [String: Any] { _nsError.userInfo }

    // MARK: CustomNSError

    /// Always ``NFCErrorDomain``.
    public static var errorDomain: String { NFCErrorDomain }

    /// The raw value of ``code``.
    public var errorCode: Int { code.rawValue }

    /// ``userInfo`` with `NSLocalizedDescriptionKey` filled in when it is missing, so that an
    /// `NSError` made from this error describes itself on every platform.
    public var errorUserInfo: [String: Any] {
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil {
            info[NSLocalizedDescriptionKey] = code.defaultDescription
        }
        return info
    }

    // MARK: LocalizedError

    /// The `NSLocalizedDescriptionKey` of ``userInfo`` when present, else a short English description of ``code``.
    public var errorDescription: String? {
        (userInfo[NSLocalizedDescriptionKey] as? String) ?? code.defaultDescription
    }

    // MARK: Hashable

    /// Two errors are equal when their codes are equal and their `userInfo` dictionaries hold
    /// equal values under the same keys (values that are not `Hashable` compare by identity).
    public static func == (lhs: NFCReaderError, rhs: NFCReaderError) -> Bool {
        lhs.code == rhs.code && sameUserInfo(lhs.userInfo, rhs.userInfo)
    }

    /// Hashes the code only (equal errors have equal codes).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    private static func sameUserInfo(_ lhs: [String: Any], _ rhs: [String: Any]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, left) in lhs {
            guard let right = rhs[key] else { return false }
            if let left = left as? AnyHashable, let right = right as? AnyHashable {
                guard left == right else { return false }
            } else {
                guard (left as AnyObject) === (right as AnyObject) else { return false }
            }
        }
        return true
    }
}

// MARK: - The codes as static members, as Core NFC's bridged struct has them

@available(iOS 11.0, *)
extension NFCReaderError {
    /// ``Code/readerErrorUnsupportedFeature`` (1): not available on this reader or for this tag; here also a session begun with no reader.
    public static var readerErrorUnsupportedFeature: Code { .readerErrorUnsupportedFeature }
    /// ``Code/readerErrorSecurityViolation`` (2): a missing entitlement or privacy setting; here also a session with no app configuration.
    public static var readerErrorSecurityViolation: Code { .readerErrorSecurityViolation }
    /// ``Code/readerErrorInvalidParameter`` (3): a parameter has a value the operation does not accept.
    @available(iOS 13.0, *)
    public static var readerErrorInvalidParameter: Code { .readerErrorInvalidParameter }
    /// ``Code/readerErrorInvalidParameterLength`` (4): a parameter, usually a data buffer, has a length the operation does not accept.
    @available(iOS 13.0, *)
    public static var readerErrorInvalidParameterLength: Code { .readerErrorInvalidParameterLength }
    /// ``Code/readerErrorParameterOutOfBound`` (5): a parameter lies outside the accepted range.
    @available(iOS 13.0, *)
    public static var readerErrorParameterOutOfBound: Code { .readerErrorParameterOutOfBound }
    /// ``Code/readerErrorRadioDisabled`` (6): the NFC radio is off; never raised here, where there is no radio switch.
    @available(iOS 14.0, *)
    public static var readerErrorRadioDisabled: Code { .readerErrorRadioDisabled }
    /// ``Code/readerErrorIneligible`` (7): the device or account is not eligible: an `NFCPaymentTagReaderSession` begun outside an eligible region (``NFCSessionEnvironment/isInEligibleRegion``).
    @available(iOS 26.0, *)
    public static var readerErrorIneligible: Code { .readerErrorIneligible }
    /// ``Code/readerErrorAccessNotAccepted`` (8): the user refused NFC access; never raised by this implementation.
    @available(iOS 26.0, *)
    public static var readerErrorAccessNotAccepted: Code { .readerErrorAccessNotAccepted }

    /// ``Code/readerTransceiveErrorTagConnectionLost`` (100): the tag left the field or stopped answering.
    public static var readerTransceiveErrorTagConnectionLost: Code { .readerTransceiveErrorTagConnectionLost }
    /// ``Code/readerTransceiveErrorRetryExceeded`` (101): no answer after all retries; never raised here (the last error is thrown).
    public static var readerTransceiveErrorRetryExceeded: Code { .readerTransceiveErrorRetryExceeded }
    /// ``Code/readerTransceiveErrorTagResponseError`` (102): the tag answered with an error.
    public static var readerTransceiveErrorTagResponseError: Code { .readerTransceiveErrorTagResponseError }
    /// ``Code/readerTransceiveErrorSessionInvalidated`` (103): the session is no longer active.
    @available(iOS 13.0, *)
    public static var readerTransceiveErrorSessionInvalidated: Code { .readerTransceiveErrorSessionInvalidated }
    /// ``Code/readerTransceiveErrorTagNotConnected`` (104): the tag is not the connected one, or is from an earlier polling round.
    @available(iOS 13.0, *)
    public static var readerTransceiveErrorTagNotConnected: Code { .readerTransceiveErrorTagNotConnected }
    /// ``Code/readerTransceiveErrorPacketTooLong`` (105): the command is longer than the tag or reader takes in one frame.
    @available(iOS 14.0, *)
    public static var readerTransceiveErrorPacketTooLong: Code { .readerTransceiveErrorPacketTooLong }

    /// ``Code/readerSessionInvalidationErrorUserCanceled`` (200): the session was cancelled, also by the app's `invalidate()`, as on iOS.
    public static var readerSessionInvalidationErrorUserCanceled: Code { .readerSessionInvalidationErrorUserCanceled }
    /// ``Code/readerSessionInvalidationErrorSessionTimeout`` (201): the session reached its time limit.
    public static var readerSessionInvalidationErrorSessionTimeout: Code { .readerSessionInvalidationErrorSessionTimeout }
    /// ``Code/readerSessionInvalidationErrorSessionTerminatedUnexpectedly`` (202): the session ended for a reason the app did not cause.
    public static var readerSessionInvalidationErrorSessionTerminatedUnexpectedly: Code {
        .readerSessionInvalidationErrorSessionTerminatedUnexpectedly
    }
    /// ``Code/readerSessionInvalidationErrorSystemIsBusy`` (203): another session holds the reader.
    public static var readerSessionInvalidationErrorSystemIsBusy: Code { .readerSessionInvalidationErrorSystemIsBusy }
    /// ``Code/readerSessionInvalidationErrorFirstNDEFTagRead`` (204): a single-read NDEF session ended after its first message.
    public static var readerSessionInvalidationErrorFirstNDEFTagRead: Code { .readerSessionInvalidationErrorFirstNDEFTagRead }

    /// ``Code/tagCommandConfigurationErrorInvalidParameters`` (300): a command configuration is out of range; never raised here.
    public static var tagCommandConfigurationErrorInvalidParameters: Code { .tagCommandConfigurationErrorInvalidParameters }

    /// ``Code/ndefReaderSessionErrorTagNotWritable`` (400): the tag cannot be written.
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagNotWritable: Code { .ndefReaderSessionErrorTagNotWritable }
    /// ``Code/ndefReaderSessionErrorTagUpdateFailure`` (401): writing the NDEF message failed.
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagUpdateFailure: Code { .ndefReaderSessionErrorTagUpdateFailure }
    /// ``Code/ndefReaderSessionErrorTagSizeTooSmall`` (402): the NDEF message does not fit on the tag.
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagSizeTooSmall: Code { .ndefReaderSessionErrorTagSizeTooSmall }
    /// ``Code/ndefReaderSessionErrorZeroLengthMessage`` (403): the NDEF message to write has no bytes.
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorZeroLengthMessage: Code { .ndefReaderSessionErrorZeroLengthMessage }
}
