import Foundation
import NFCTags
import NFCTransport

/// Core NFC's iOS 11 ISO 15693 reader session (`NFCISO15693ReaderSession.h`; Swift sees it as
/// `__NFCISO15693ReaderSession`, Apple marks it `NS_REFINED_FOR_SWIFT` and deprecates it in
/// iOS 17 for `NFCTagReaderSession`).
///
/// It polls ISO/IEC 15693 only and hands the tags it finds to
/// ``__NFCReaderSessionDelegate/readerSession(_:didDetect:)`` as `__NFCTag`s (cast them with
/// ``__NFCTag/asNFCISO15693Tag()``); they need no `connect`. Polling then pauses until
/// ``restartPolling()``, which also makes the tags found before unusable. This is the session
/// where the iOS 11 configuration calls of `NFCISO15693Tag`
/// (`sendCustomCommand(commandConfiguration:)`, `readMultipleBlock(readConfiguration:)`) work;
/// on tags of an `NFCTagReaderSession` they fail with `readerErrorUnsupportedFeature`
/// (`NFCISO15693Tag.h`).
///
/// The rules at `begin()` are those of a tag session polling ISO 15693: a usage description and
/// the `TAG` reader-session format (decision: Apple's iOS 11 documentation predates the `TAG`
/// format; iOS 13 and later require it for raw tag access, and this is raw tag access).
@available(iOS, introduced: 11.0, deprecated: 17.0, message: "Use NFCTagReaderSession")
open class __NFCISO15693ReaderSession: NFCReaderSession, @unchecked Sendable {
    /// Creates a session; it starts with ``NFCReaderSession/begin()``.
    public init(delegate: any __NFCReaderSessionDelegate, queue: DispatchQueue?) {
        super.init(delegate: delegate, queue: queue, technologies: [.iso15693], mode: .pauseUntilRestart)
    }

    /// Polls again; tags found before become unusable.
    public func restartPolling() {
        restartPollingRound()
    }

    var legacyDelegate: (any __NFCReaderSessionDelegate)? { delegate as? any __NFCReaderSessionDelegate }

    override func configurationRefusal() -> NFCReaderError? {
        AppRules.tagSessionRefusal(polling: .iso15693)
    }

    override func notifyBecameActive() { legacyDelegate?.readerSessionDidBecomeActive(self) }

    override func notifyInvalidated(_ error: NFCReaderError) { legacyDelegate?.readerSession(self, didInvalidateWithError: error) }

    override func didDetect(_ targets: [TargetInfo], generation: Int) async {
        let tags: [any __NFCTag] = targets.filter { TagFamily($0) == .type5 }.map {
            ISO15693TagObject(target: $0, generation: generation, session: self, requiresConnection: false)
        }
        guard !tags.isEmpty else {
            resumePolling(round: generation)
            return
        }
        nonisolated(unsafe) let delivered = tags
        sessionQueue.async {
            guard self.isReady else { return }
            self.legacyDelegate?.readerSession(self, didDetect: delivered)
        }
    }
}
