import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// Core NFC and NFC Forum Type 1 tags: `NFCNDEFReaderSession` reads and writes them (Apple:
/// "NFC Forum Type 1 through 5 tags"), as an `NFCNDEFTag` of no further kind; a tag reader
/// session has no `NFCTag` case for them and passes them by.
extension SessionTests {
    @Suite struct Type1SessionTests {
        @Test(arguments: [VirtualTagKind.topaz512, .topaz96])
        func ndefSessionsWriteAndReadATopaz(kind: VirtualTagKind) async throws {
            let bench = await SessionBench([try kind.make()])
            let message = NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/topaz")!])

            let writer = NDEFWriterDelegate()
            let writing = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
            writing.begin()
            guard case .ndefTags(let tags)? = await writer.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                return
            }
            try await writing.connect(to: tag)
            let (status, capacity) = try await tag.queryNDEFStatus()
            #expect(status == .readWrite)
            #expect(capacity == (kind == .topaz96 ? 90 : 462))
            try await tag.writeNDEF(message)
            writing.invalidate()
            _ = await writer.log.next()

            let reader = NDEFReaderDelegate()
            let reading = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
            reading.begin()
            guard case .ndefs(let messages)? = await reader.log.nextSignificant() else {
                Issue.record("expected didDetectNDEFs")
                return
            }
            #expect(messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/topaz")
            _ = bench
        }

        @Test func writeLockMakesATopazReadOnly() async throws {
            let bench = await SessionBench([try VirtualTagKind.topaz512.make()])
            let delegate = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefTags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                return
            }
            try await session.connect(to: tag)
            try await tag.writeNDEF(NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com")!]))
            try await tag.writeLock()
            #expect(try await tag.queryNDEFStatus().0 == .readOnly)
            await expectReaderError(.ndefReaderSessionErrorTagNotWritable) {
                try await tag.writeNDEF(NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org")!]))
            }
            session.invalidate()
            _ = bench
        }

        @Test func aTagReaderSessionPassesATopazBy() async throws {
            let bench = await SessionBench([try VirtualTagKind.topaz512.make(), try VirtualTagKind.ntag213.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected tags")
                return
            }
            #expect(tags.count == 1)
            guard case .miFare? = tags.first else {
                Issue.record("expected only the NTAG213")
                return
            }
            session.invalidate()
            _ = bench
        }
    }
}
