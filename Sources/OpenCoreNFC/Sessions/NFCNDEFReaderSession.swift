import Dispatch
import Foundation
import NFCTransport

/// A session that reads NDEF messages from any NFC Forum tag (Core NFC's `NFCNDEFReaderSession`).
///
/// In read-only mode (the delegate does not implement `didDetect tags`) the session reads each
/// tag it finds and calls `didDetectNDEFs`; with `invalidateAfterFirstRead` it then ends with
/// `readerSessionInvalidationErrorFirstNDEFTagRead`. In read-write mode the delegate gets the
/// tags, connects with `connect(to:)` and reads, writes or locks them.
@available(iOS 11.0, *)
open class NFCNDEFReaderSession: NFCReaderSession, @unchecked Sendable {
    /// Whether the session ends after the first message is delivered.
    public let invalidateAfterFirstRead: Bool

    // Guarded by `lock`.
    private var lacksDidDetectTags = false

    /// Set by the delegate protocol's default `didDetect tags`: the app did not implement it.
    var appLacksDidDetectTags: Bool {
        get { lock.withLock { lacksDidDetectTags } }
        set { lock.withLock { lacksDidDetectTags = newValue } }
    }

    /// Creates an NDEF session polling every technology, as Apple's. Delegate calls run on `queue`, or on a private serial queue when nil.
    /// With `invalidateAfterFirstRead`, a read-only session ends after the first message is delivered.
    public init(delegate: any NFCNDEFReaderSessionDelegate, queue: DispatchQueue?, invalidateAfterFirstRead: Bool) {
        self.invalidateAfterFirstRead = invalidateAfterFirstRead
        super.init(delegate: delegate, queue: queue, technologies: .all, mode: .unknown)
    }

    var ndefDelegate: (any NFCNDEFReaderSessionDelegate)? { delegate as? any NFCNDEFReaderSessionDelegate }

    /// Connects to a tag this session detected (read-write mode).
    @available(iOS 13.0, *)
    public func connect(to tag: any NFCNDEFTag) async throws {
        guard let object = tag as? NFCTagObject, object.owner === self else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "the tag was not detected by this session")
        }
        _ = try await connection(for: object.target, generation: object.generation)
        markConnected(object.target, generation: object.generation)
    }

    /// Completion form of ``connect(to:)``: `completionHandler` gets nil or the error, on ``NFCReaderSession/sessionQueue``.
    @available(iOS 13.0, *)
    public func connect(to tag: any NFCNDEFTag, completionHandler: @escaping ((any Error)?) -> Void) {
        nonisolated(unsafe) let completionHandler = completionHandler
        nonisolated(unsafe) let tag = tag
        Task {
            do {
                try await connect(to: tag)
                sessionQueue.async { completionHandler(nil) }
            } catch {
                sessionQueue.async { completionHandler(error) }
            }
        }
    }

    /// Polls again; tags detected before become unavailable.
    ///
    /// As Apple documents, it has no effect on a session whose delegate reads messages
    /// (no `didDetect tags`): such a session polls on by itself and reads a tag again once it has
    /// been removed and tapped again (`NFCNDEFReaderSession.h`).
    @available(iOS 13.0, *)
    public func restartPolling() { restartPollingRound() }

    override func configurationRefusal() -> NFCReaderError? { AppRules.ndefSessionRefusal() }

    override func notifyBecameActive() { ndefDelegate?.readerSessionDidBecomeActive(self) }

    override func notifyInvalidated(_ error: NFCReaderError) { ndefDelegate?.readerSession(self, didInvalidateWithError: error) }

    override func didDetect(_ targets: [TargetInfo], generation: Int) async {
        let tags = targets.map { TagFactory.ndefTag(for: $0, generation: generation, session: self) }
        let delivered = tags
        sessionQueue.async {
            guard self.isReady, let delegate = self.ndefDelegate else { return }
            self.appLacksDidDetectTags = false
            delegate.readerSession(self, didDetect: delivered as [any NFCNDEFTag])
            guard self.appLacksDidDetectTags else {
                self.resolveDeliveryMode(.pauseUntilRestart)
                return
            }
            self.resolveDeliveryMode(.automaticRestart)
            Task { await self.readAndDeliver(delivered) }
        }
    }

    /// Read-only mode: read each tag and hand the messages to the delegate.
    private func readAndDeliver(_ tags: [NFCTagObject]) async {
        var messages: [NFCNDEFMessage] = []
        for tag in tags {
            markConnected(tag.target, generation: tag.generation)
            if let message = try? await tag.readNDEF() { messages.append(message) }
        }
        guard !messages.isEmpty else { return }
        nonisolated(unsafe) let delivered = messages
        sessionQueue.async {
            guard self.isReady else { return }
            self.ndefDelegate?.readerSession(self, didDetectNDEFs: delivered)
            if self.invalidateAfterFirstRead {
                self.end(with: NFCReaderError(.readerSessionInvalidationErrorFirstNDEFTagRead, reason: "the first NDEF message was read"))
            }
        }
    }
}
