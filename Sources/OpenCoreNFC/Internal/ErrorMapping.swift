import NFCTags
import NFCTransport

/// How failures below the API surface as Core NFC's error codes.
///
/// One rule for raw commands and NDEF operations alike: a tag that is in the field but does not
/// answer in time is `readerTransceiveErrorTagResponseError` (102, `NFCError.h`: "tag response
/// error"); a tag that left the field, or a reader that went away, is
/// `readerTransceiveErrorTagConnectionLost` (100, "connection to the tag is lost").
enum ErrorMapping {
    /// A tag engine's failure during a read or a status query.
    static func readError(_ error: TagEngineError) -> NFCReaderError {
        switch error.code {
        case .tagLost: NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: error.description)
        case .transport where readerGone(error): NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: error.description)
        case .readOnly: NFCReaderError(.ndefReaderSessionErrorTagNotWritable, reason: error.description)
        case .capacityExceeded: NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, reason: error.description)
        case .unsupported: NFCReaderError(.readerErrorUnsupportedFeature, reason: error.description)
        default: NFCReaderError(.readerTransceiveErrorTagResponseError, reason: error.description)
        }
    }

    /// A tag engine's failure during a write or a lock.
    static func writeError(_ error: TagEngineError) -> NFCReaderError {
        switch error.code {
        case .tagLost: NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: error.description)
        case .timeout: NFCReaderError(.readerTransceiveErrorTagResponseError, reason: error.description)
        case .transport where readerGone(error): NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: error.description)
        case .readOnly: NFCReaderError(.ndefReaderSessionErrorTagNotWritable, reason: error.description)
        case .capacityExceeded: NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, reason: error.description)
        case .notFormatted: NFCReaderError(.ndefReaderSessionErrorTagNotWritable, reason: error.description)
        case .unsupported: NFCReaderError(.readerErrorUnsupportedFeature, reason: error.description)
        default: NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure, reason: error.description)
        }
    }

    /// Whether an engine failure is the reader (or pcscd) going away under the tag, which the app
    /// sees as a lost connection, not as a bad answer from the tag.
    static func readerGone(_ error: TagEngineError) -> Bool {
        guard let code = error.transport?.code else { return false }
        return code == .readerRemoved || code == .serviceUnavailable || code == .noSuchTarget
    }

    /// A transport failure on a raw command. A command the reader cannot carry (a PC/SC reader
    /// with READ and WRITE pseudo-APDUs only, asked for GET_VERSION) is
    /// `readerErrorUnsupportedFeature`, with the reader named in the reason: the tag is still
    /// there, so it is not a lost connection.
    static func transceiveError(_ error: TransportError) -> NFCReaderError {
        switch error.code {
        case .frameTooLong: NFCReaderError(.readerTransceiveErrorPacketTooLong, reason: error.description)
        case .notConnected: NFCReaderError(.readerTransceiveErrorTagNotConnected, reason: error.description)
        case .unsupportedCommand: NFCReaderError(.readerErrorUnsupportedFeature, reason: error.description)
        case .timeout, .transmission: NFCReaderError(.readerTransceiveErrorTagResponseError, reason: error.description)
        default: NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: error.description)
        }
    }
}

extension NFCReaderError {
    /// An error with a reason for people in its user info.
    init(_ code: Code, reason: String) {
        self.init(code, userInfo: ["NSLocalizedFailureReason": reason])
    }
}
