import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// The published NDEF reading and writing flows, written as an iOS developer writes them, run
/// against the simulator.
extension SessionTests {
    @Suite struct NDEFReaderSessionTests {
        @Test func readerFlowDeliversTheMessageThenEndsAfterTheFirstRead() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag216.make()])
            defer { _ = bench }
            let delegate = NDEFReaderDelegate()
            try await writeThroughSession(
                NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/read")!]))

            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true)
            session.alertMessage = "Hold your iPhone near the tag."
            session.begin()
            guard case .becameActive? = await delegate.log.next() else {
                Issue.record("expected readerSessionDidBecomeActive")
                return
            }
            guard case .ndefs(let messages)? = await delegate.log.next() else {
                Issue.record("expected didDetectNDEFs")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/read")
            guard let error = await delegate.log.next()?.readerError else {
                Issue.record("expected the session to end")
                return
            }
            #expect(error.code == .readerSessionInvalidationErrorFirstNDEFTagRead)
            #expect(!session.isReady)
        }

        /// The writer flow: didDetect tags → connect → queryNDEFStatus → writeNDEF → invalidate.
        func writeThroughSession(_ message: NFCNDEFMessage) async throws {
            let delegate = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefTags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                return
            }
            try await session.connect(to: tag)
            let (status, capacity) = try await tag.queryNDEFStatus()
            #expect(status == .readWrite)
            #expect(capacity > 0)
            try await tag.writeNDEF(message)
            session.invalidate()
            guard let error = await delegate.log.next()?.readerError else {
                Issue.record("expected didInvalidateWithError")
                return
            }
            #expect(error.code == .readerSessionInvalidationErrorUserCanceled)
        }

        @Test func writerFlowWritesAndTheReaderSeesIt() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag215.make()])
            let message = NFCNDEFMessage(records: [
                NFCNDEFPayload.wellKnownTypeTextPayload(string: "written", locale: Locale(identifier: "en"))!
            ])
            try await writeThroughSession(message)
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefs(let messages)? = await delegate.log.nextSignificant() else {
                Issue.record("expected didDetectNDEFs")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeTextPayload().0 == "written")
            session.invalidate()
            _ = bench
        }

        @Test func implementingDidDetectTagsMeansNoDidDetectNDEFs() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true)
            session.begin()
            guard case .ndefTags? = await delegate.log.nextSignificant() else {
                Issue.record("expected didDetect tags")
                return
            }
            // A read-write session does not read by itself: after didDetect tags, nothing else
            // arrives until the app ends the session.
            session.invalidate()
            guard let error = await delegate.log.next()?.readerError else {
                Issue.record("expected only the invalidation, not didDetectNDEFs")
                return
            }
            #expect(error.code == .readerSessionInvalidationErrorUserCanceled)
            _ = bench
        }

        @Test func writingErrors() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefTags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                return
            }
            // Not connected yet.
            await expectReaderError(.readerTransceiveErrorTagNotConnected) { try await tag.readNDEF() }
            try await session.connect(to: tag)
            // Empty tag.
            await expectReaderError(.ndefReaderSessionErrorZeroLengthMessage) { try await tag.readNDEF() }
            // Empty message.
            await expectReaderError(.ndefReaderSessionErrorZeroLengthMessage) { try await tag.writeNDEF(NFCNDEFMessage(records: [])) }
            // Too big for an NTAG213 (142 bytes).
            let big = NFCNDEFMessage(records: [
                NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: Data(count: 400))
            ])
            await expectReaderError(.ndefReaderSessionErrorTagSizeTooSmall) { try await tag.writeNDEF(big) }
            // Read-only after writeLock.
            try await tag.writeNDEF(NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com")!]))
            try await tag.writeLock()
            #expect(try await tag.queryNDEFStatus().0 == .readOnly)
            await expectReaderError(.ndefReaderSessionErrorTagNotWritable) {
                try await tag.writeNDEF(NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org")!]))
            }
            session.invalidate()
            _ = bench
        }
    }
}
