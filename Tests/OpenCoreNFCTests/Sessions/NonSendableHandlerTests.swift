import NFCSimulator
import OpenCoreNFC
import Testing

/// Completion handlers are plain escaping closures, as Core NFC's Objective-C headers declare
/// them (`NFCTagReaderSession.h`: `completionHandler:(void(^)(NSError * _Nullable error))`, no
/// `NS_SWIFT_SENDABLE`): an app class that is not `Sendable` captures `self`, a tag and a local
/// `var` in them and compiles in the Swift 6 language mode, as this file (compiled in that mode)
/// shows. The handlers run on the session's queue, one at a time.
extension SessionTests {
    @Suite struct NonSendableHandlerTests {
        /// An app's writer as iOS apps write it: not `Sendable`, state in `var`s, the calls
        /// chained through completion handlers.
        final class StickerWriter: NSObject, NFCNDEFReaderSessionDelegate {
            let done = EventLog()
            var steps: [String] = []
            var capacity = 0

            func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
                done.record(.invalidated(error))
            }
            func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}
            func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
                guard let tag = tags.first else { return }
                var attempts = 0
                session.connect(to: tag) { error in
                    attempts += 1
                    self.steps.append(error == nil ? "connected" : "connect failed")
                    tag.queryNDEFStatus { status, capacity, _ in
                        self.capacity = capacity
                        self.steps.append(status == .readWrite ? "writable" : "not writable")
                        let message = NFCNDEFMessage(records: [
                            NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/\(attempts)")!
                        ])
                        tag.writeNDEF(message) { error in
                            self.steps.append(error == nil ? "written" : "write failed")
                            tag.readNDEF { message, _ in
                                self.steps.append("read")
                                self.done.record(.ndefs(message.map { [$0] } ?? []))
                            }
                        }
                    }
                }
            }
        }

        @Test func anAppThatIsNotSendableChainsItsHandlers() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let writer = StickerWriter()
            let session = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefs(let messages)? = await writer.done.next(), let message = messages.first else {
                Issue.record("expected the message read back")
                return
            }
            #expect(writer.steps == ["connected", "writable", "written", "read"])
            #expect(writer.capacity == 142)  // NTAG213: 144 bytes of user memory less the NDEF TLV's type and length
            #expect(message.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/1")
            session.invalidate()
            _ = await writer.done.next()
            _ = bench
        }
    }
}
