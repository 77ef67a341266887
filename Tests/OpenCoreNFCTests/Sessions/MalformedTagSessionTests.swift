import Foundation
import NFCSimulator
import NFCTags
import NFCTransport
import OpenCoreNFC
import Testing

/// A tag whose NDEF message is malformed, read through the Core NFC API: the app gets a typed
/// error for that read, the session goes on, and the tag can be written again.
extension SessionTests {
    @Suite struct MalformedTagSessionTests {
        /// Writes raw bytes as the tag's NDEF message, bypassing any encoder.
        static func plant(_ bytes: [UInt8], on field: SimulatedField, family: TagFamily) async throws {
            let target = try #require(try await field.targets(matching: .all).first)
            let connection = try await field.connect(to: target, meter: AirTimeMeter())
            try await TagEngines.engine(for: family).writeNDEF(bytes, on: connection)
            await connection.disconnect()
        }

        @Test(
            "a lying NDEF length on a tag: readNDEF throws tag response error, the session lives, a write repairs it",
            arguments: [
                [UInt8]([0xD1, 0x01, 0xFF, 0x55, 0x00]),  // payload length 255, one byte follows
                [0xC1, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x55, 0x00],  // 4-byte payload length 0xFFFFFFFF
                [0x17, 0x00, 0x00],  // TNF 7, no MB/ME
                [0xD1, 0x01, 0x01, 0x55, 0x00, 0x00, 0x00],  // bytes after ME
            ])
        func malformedMessage(bytes: [UInt8]) async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag215.make()])
            try await Self.plant(bytes, on: bench.field, family: .type2)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            _ = await delegate.log.next()
            guard case .tags(let tags)? = await delegate.log.next(), case .miFare(let tag)? = tags.first else {
                Issue.record("expected the NTAG")
                return
            }
            try await session.connect(to: tags[0])
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.readNDEF() }
            // The completion handler form says the same, once.
            let (stream, continuation) = AsyncStream<(Bool, NFCReaderError.Code?)>.makeStream()
            tag.readNDEF { message, error in continuation.yield((message != nil, (error as? NFCReaderError)?.code)) }
            var answers = stream.makeAsyncIterator()
            let answer = await answers.next()
            #expect(answer?.0 == false)
            #expect(answer?.1 == .readerTransceiveErrorTagResponseError)
            // Nothing is broken: the session is alive, the status reads, a new message replaces the bad one.
            #expect(session.isReady)
            let (status, _) = try await tag.queryNDEFStatus()
            #expect(status == .readWrite)
            let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org/repaired"))
            try await tag.writeNDEF(NFCNDEFMessage(records: [uri]))
            let repaired = try await tag.readNDEF()
            #expect(repaired.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://example.org/repaired")
            session.invalidate()
            #expect(await delegate.log.nextSignificant()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            _ = bench
        }
    }
}
