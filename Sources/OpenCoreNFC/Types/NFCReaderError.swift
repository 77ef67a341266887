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

    public var errorDescription: String? {
        (userInfo[NSLocalizedDescriptionKey] as? String) ?? code.defaultDescription
    }

    // MARK: Hashable

    /// Two errors are equal when their codes are equal and their `userInfo` dictionaries hold
    /// equal values under the same keys (values that are not `Hashable` compare by identity).
    public static func == (lhs: NFCReaderError, rhs: NFCReaderError) -> Bool {
        lhs.code == rhs.code && sameUserInfo(lhs.userInfo, rhs.userInfo)
    }

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
    public static var readerErrorUnsupportedFeature: Code { .readerErrorUnsupportedFeature }
    public static var readerErrorSecurityViolation: Code { .readerErrorSecurityViolation }
    @available(iOS 13.0, *)
    public static var readerErrorInvalidParameter: Code { .readerErrorInvalidParameter }
    @available(iOS 13.0, *)
    public static var readerErrorInvalidParameterLength: Code { .readerErrorInvalidParameterLength }
    @available(iOS 13.0, *)
    public static var readerErrorParameterOutOfBound: Code { .readerErrorParameterOutOfBound }
    @available(iOS 14.0, *)
    public static var readerErrorRadioDisabled: Code { .readerErrorRadioDisabled }
    @available(iOS 26.0, *)
    public static var readerErrorIneligible: Code { .readerErrorIneligible }
    @available(iOS 26.0, *)
    public static var readerErrorAccessNotAccepted: Code { .readerErrorAccessNotAccepted }

    public static var readerTransceiveErrorTagConnectionLost: Code { .readerTransceiveErrorTagConnectionLost }
    public static var readerTransceiveErrorRetryExceeded: Code { .readerTransceiveErrorRetryExceeded }
    public static var readerTransceiveErrorTagResponseError: Code { .readerTransceiveErrorTagResponseError }
    @available(iOS 13.0, *)
    public static var readerTransceiveErrorSessionInvalidated: Code { .readerTransceiveErrorSessionInvalidated }
    @available(iOS 13.0, *)
    public static var readerTransceiveErrorTagNotConnected: Code { .readerTransceiveErrorTagNotConnected }
    @available(iOS 14.0, *)
    public static var readerTransceiveErrorPacketTooLong: Code { .readerTransceiveErrorPacketTooLong }

    public static var readerSessionInvalidationErrorUserCanceled: Code { .readerSessionInvalidationErrorUserCanceled }
    public static var readerSessionInvalidationErrorSessionTimeout: Code { .readerSessionInvalidationErrorSessionTimeout }
    public static var readerSessionInvalidationErrorSessionTerminatedUnexpectedly: Code {
        .readerSessionInvalidationErrorSessionTerminatedUnexpectedly
    }
    public static var readerSessionInvalidationErrorSystemIsBusy: Code { .readerSessionInvalidationErrorSystemIsBusy }
    public static var readerSessionInvalidationErrorFirstNDEFTagRead: Code { .readerSessionInvalidationErrorFirstNDEFTagRead }

    public static var tagCommandConfigurationErrorInvalidParameters: Code { .tagCommandConfigurationErrorInvalidParameters }

    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagNotWritable: Code { .ndefReaderSessionErrorTagNotWritable }
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagUpdateFailure: Code { .ndefReaderSessionErrorTagUpdateFailure }
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorTagSizeTooSmall: Code { .ndefReaderSessionErrorTagSizeTooSmall }
    @available(iOS 13.0, *)
    public static var ndefReaderSessionErrorZeroLengthMessage: Code { .ndefReaderSessionErrorZeroLengthMessage }
}
