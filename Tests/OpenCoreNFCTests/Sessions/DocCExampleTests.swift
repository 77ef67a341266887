import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// The DocC article's example ("Testing Core NFC code without a phone"), kept compiling and true.
final class ArticleWriter: NSObject, NFCNDEFReaderSessionDelegate {
    let message: NFCNDEFMessage
    let log = EventLog()
    init(message: NFCNDEFMessage) { self.message = message }

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        // Completion handlers are plain closures, as on iOS: they may capture the tag and
        // `self`, and run on the session's queue one at a time.
        guard let tag = tags.first else { return }
        session.connect(to: tag) { error in
            guard error == nil else { return session.invalidate(errorMessage: "Connection failed.") }
            tag.queryNDEFStatus { status, capacity, _ in
                guard status == .readWrite else { return session.invalidate(errorMessage: "Not writable.") }
                tag.writeNDEF(self.message) { error in
                    session.alertMessage = error == nil ? "Saved." : "Write failed."
                    session.invalidate()
                }
            }
        }
    }
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        log.record(.invalidated(error))
    }
}

extension SessionTests {
    @Suite struct DocCExampleTests {
        @Test func articleWriterWrites() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag216.make()])
            let writer = ArticleWriter(
                message: NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com")!]))
            let session = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            #expect(await writer.log.next()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            #expect(session.alertMessage == "Saved.")
            // The tag now holds the message: read it with a read-only session.
            let reader = NDEFReaderDelegate()
            let check = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
            check.begin()
            guard case .ndefs(let messages)? = await reader.log.nextSignificant() else {
                Issue.record("expected the written message")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com")
            _ = bench
        }
    }
}
