extension NFCReaderError {
    /// The reason a session or a tag operation failed, with Core NFC's names and raw values.
    ///
    /// The hundreds group the codes: 1… reader, 100… transceive, 200… session invalidation,
    /// 300 command configuration, 400… NDEF writing. Not `@frozen`: switch over it with
    /// `@unknown default`, as on iOS.
    @available(iOS 11.0, *)
    public enum Code: Int, Sendable {
        /// The feature is not available on this reader or for this tag.
        case readerErrorUnsupportedFeature = 1
        /// The app lacks an entitlement or a privacy setting the operation needs.
        case readerErrorSecurityViolation = 2
        /// A parameter has a value the operation does not accept.
        @available(iOS 13.0, *)
        case readerErrorInvalidParameter = 3
        /// A parameter (usually a data buffer) has a length the operation does not accept.
        @available(iOS 13.0, *)
        case readerErrorInvalidParameterLength = 4
        /// A parameter lies outside the range the operation accepts.
        @available(iOS 13.0, *)
        case readerErrorParameterOutOfBound = 5
        /// The NFC radio is switched off.
        @available(iOS 14.0, *)
        case readerErrorRadioDisabled = 6
        /// The device or the account is not eligible for the requested session.
        @available(iOS 26.0, *)
        case readerErrorIneligible = 7
        /// The user did not accept the request to use NFC.
        @available(iOS 26.0, *)
        case readerErrorAccessNotAccepted = 8

        /// The tag left the field or stopped answering.
        case readerTransceiveErrorTagConnectionLost = 100
        /// The command was retried as often as allowed without an answer.
        case readerTransceiveErrorRetryExceeded = 101
        /// The tag answered with an error (see ``NFCISO15693TagResponseErrorKey``).
        case readerTransceiveErrorTagResponseError = 102
        /// The session was invalidated while the command was pending.
        @available(iOS 13.0, *)
        case readerTransceiveErrorSessionInvalidated = 103
        /// The tag is not the connected one.
        @available(iOS 13.0, *)
        case readerTransceiveErrorTagNotConnected = 104
        /// The command is longer than the tag or the reader can take in one frame.
        @available(iOS 14.0, *)
        case readerTransceiveErrorPacketTooLong = 105

        /// The user cancelled the session.
        case readerSessionInvalidationErrorUserCanceled = 200
        /// The session ran past its time limit.
        case readerSessionInvalidationErrorSessionTimeout = 201
        /// The session ended for a reason outside the app's control.
        case readerSessionInvalidationErrorSessionTerminatedUnexpectedly = 202
        /// Another session holds the reader.
        case readerSessionInvalidationErrorSystemIsBusy = 203
        /// A single-read NDEF session finished after reading its first tag.
        case readerSessionInvalidationErrorFirstNDEFTagRead = 204

        /// A command configuration holds an invalid value.
        case tagCommandConfigurationErrorInvalidParameters = 300

        /// The tag cannot be written.
        @available(iOS 13.0, *)
        case ndefReaderSessionErrorTagNotWritable = 400
        /// Writing the NDEF message to the tag failed.
        @available(iOS 13.0, *)
        case ndefReaderSessionErrorTagUpdateFailure = 401
        /// The NDEF message does not fit on the tag.
        @available(iOS 13.0, *)
        case ndefReaderSessionErrorTagSizeTooSmall = 402
        /// The NDEF message to write has no bytes.
        @available(iOS 13.0, *)
        case ndefReaderSessionErrorZeroLengthMessage = 403
    }
}

extension NFCReaderError.Code {
    /// Matches a thrown error against a code, so that
    /// `catch NFCReaderError.readerSessionInvalidationErrorUserCanceled { … }` works as on iOS.
    public static func ~= (match: NFCReaderError.Code, error: any Error) -> Bool {
        (error as? NFCReaderError)?.code == match
    }

    /// A short English description of the failure, used when an error has no
    /// `NSLocalizedDescriptionKey` of its own.
    var defaultDescription: String {
        switch self {
        case .readerErrorUnsupportedFeature: "Feature not supported"
        case .readerErrorSecurityViolation: "Missing required entitlement or privacy setting"
        case .readerErrorInvalidParameter: "Invalid parameter"
        case .readerErrorInvalidParameterLength: "Invalid parameter length"
        case .readerErrorParameterOutOfBound: "Parameter out of range"
        case .readerErrorRadioDisabled: "NFC radio is off"
        case .readerErrorIneligible: "Not eligible for this session"
        case .readerErrorAccessNotAccepted: "NFC access not accepted"
        case .readerTransceiveErrorTagConnectionLost: "Connection to the tag was lost"
        case .readerTransceiveErrorRetryExceeded: "No answer from the tag after all retries"
        case .readerTransceiveErrorTagResponseError: "The tag answered with an error"
        case .readerTransceiveErrorSessionInvalidated: "The session is no longer valid"
        case .readerTransceiveErrorTagNotConnected: "The tag is not connected"
        case .readerTransceiveErrorPacketTooLong: "The command is too long"
        case .readerSessionInvalidationErrorUserCanceled: "Session cancelled by the user"
        case .readerSessionInvalidationErrorSessionTimeout: "Session timed out"
        case .readerSessionInvalidationErrorSessionTerminatedUnexpectedly: "Session ended unexpectedly"
        case .readerSessionInvalidationErrorSystemIsBusy: "The NFC reader is busy"
        case .readerSessionInvalidationErrorFirstNDEFTagRead: "Session ended after the first NDEF tag"
        case .tagCommandConfigurationErrorInvalidParameters: "Invalid command configuration"
        case .ndefReaderSessionErrorTagNotWritable: "The tag is not writable"
        case .ndefReaderSessionErrorTagUpdateFailure: "Writing to the tag failed"
        case .ndefReaderSessionErrorTagSizeTooSmall: "The message does not fit on the tag"
        case .ndefReaderSessionErrorZeroLengthMessage: "The message is empty"
        }
    }
}
