import Foundation

/// What a VAS reader session tells its delegate (Core NFC's `NFCVASReaderSessionDelegate`, iOS 13).
/// `readerSessionDidBecomeActive(_:)` is optional, as in Core NFC.
@available(iOS 13.0, *)
@preconcurrency
public protocol NFCVASReaderSessionDelegate: NSObjectProtocol {
    /// The session is active and polls for a phone.
    func readerSessionDidBecomeActive(_ session: NFCVASReaderSession)
    /// The session ended and will not start again; `error` is an `NFCReaderError` saying why.
    func readerSession(_ session: NFCVASReaderSession, didInvalidateWithError error: any Error)
    /// A phone answered: one response per configuration, in the session's order.
    func readerSession(_ session: NFCVASReaderSession, didReceive responses: [NFCVASResponse])
}

extension NFCVASReaderSessionDelegate {
    /// Does nothing by default (the method is optional, as in Core NFC).
    public func readerSessionDidBecomeActive(_ session: NFCVASReaderSession) {}
}
