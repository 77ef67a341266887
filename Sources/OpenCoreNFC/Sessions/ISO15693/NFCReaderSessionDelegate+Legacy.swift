/// The delegate of Core NFC's iOS 11 ISO 15693 reader session (`NFCReaderSession.h`: the
/// Objective-C `NFCReaderSessionDelegate`, which Swift sees as `__NFCReaderSessionDelegate`
/// because Apple marks it `NS_REFINED_FOR_SWIFT`). Calls arrive on the session's queue.
@available(iOS, introduced: 11.0, deprecated: 17.0, message: "Use NFCTagReaderSession and NFCTagReaderSessionDelegate")
public protocol __NFCReaderSessionDelegate: NSObjectProtocol {
    /// The session started polling.
    func readerSessionDidBecomeActive(_ session: NFCReaderSession)
    /// The session ended, with the reason; it cannot be used again.
    func readerSession(_ session: NFCReaderSession, didInvalidateWithError error: any Error)
    /// Tags were found (optional in Apple's header). Polling pauses until `restartPolling()`.
    func readerSession(_ session: NFCReaderSession, didDetect tags: [any __NFCTag])
}

@available(iOS, introduced: 11.0, deprecated: 17.0)
extension __NFCReaderSessionDelegate {
    /// Optional in Apple's header: tags are ignored.
    public func readerSession(_ session: NFCReaderSession, didDetect tags: [any __NFCTag]) {}
}
