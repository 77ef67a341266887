/// The error domain of every ``NFCReaderError``, as `NSError.domain` reports it.
///
/// Its value is `"NFCError"`, the string Core NFC uses.
@available(iOS 11.0, *)
public let NFCErrorDomain: String = "NFCError"

/// The `userInfo` key under which an ISO 15693 tag's own error code travels.
///
/// Present on an error whose code is ``NFCReaderError/Code/readerTransceiveErrorTagResponseError``
/// when the tag answered with its error flag set; the value is the tag's error code as an `Int`
/// (ISO/IEC 15693-3 §7.4, for example `0x0F` for "unknown error").
@available(iOS 11.0, *)
public let NFCISO15693TagResponseErrorKey: String = "ISO15693TagResponseErrorCode"

/// The `userInfo` key that marks a tag response whose length did not fit the command.
///
/// The value is `true`. Core NFC sets it alongside
/// ``NFCReaderError/Code/readerTransceiveErrorTagResponseError``.
@available(iOS 13.0, *)
public let NFCTagResponseUnexpectedLengthErrorKey: String = "TagResponseInvalidLength"
