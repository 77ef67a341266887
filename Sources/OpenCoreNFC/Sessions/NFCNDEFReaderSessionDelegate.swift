import Foundation

/// What an NDEF reader session tells its delegate (Core NFC's `NFCNDEFReaderSessionDelegate`).
///
/// `readerSessionDidBecomeActive(_:)` and `readerSession(_:didDetect:)` are optional, as in
/// Core NFC: implementing `didDetect tags` switches the session to read-write mode, where the app
/// connects to tags itself and `didDetectNDEFs` is not called.
@available(iOS 11.0, *)
@preconcurrency
public protocol NFCNDEFReaderSessionDelegate: NSObjectProtocol {
    /// The session ended and will not start again; `error` is an `NFCReaderError` saying why
    /// (`readerSessionInvalidationErrorUserCanceled` after `invalidate()`, `…FirstNDEFTagRead`, `…SessionTimeout`…).
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error)
    /// Read-only mode: the messages read from the tags of one polling round (tags without a message are skipped).
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage])
    @available(iOS 13.0, *)
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag])
    @available(iOS 13.0, *)
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession)
}

extension NFCNDEFReaderSessionDelegate {
    /// Not implemented by the app: the session reads the tags itself and calls `didDetectNDEFs`.
    public func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        session.appLacksDidDetectTags = true
    }

    /// Does nothing by default (the method is optional, as in Core NFC).
    public func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {}
}

/// What a tag reader session tells its delegate (Core NFC's `NFCTagReaderSessionDelegate`);
/// all three methods are required, as in Core NFC.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCTagReaderSessionDelegate: NSObjectProtocol {
    /// The session began polling; called once, before any tag is delivered.
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession)
    /// The session ended and will not start again; `error` is an `NFCReaderError` saying why
    /// (`readerSessionInvalidationErrorUserCanceled` after `invalidate()`, `…SessionTimeout`…).
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error)
    /// Tags found in one polling round; connect to one with `connect(to:)` before sending it commands.
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag])
}
