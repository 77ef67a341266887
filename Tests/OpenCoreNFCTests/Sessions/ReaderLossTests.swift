import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// A reader (or the service behind it, pcscd) that goes away while a session uses it: the app
/// gets a typed `NFCReaderError` for each call, no completion handler is lost, and the session
/// still ends exactly once.
extension SessionTests {
    @Suite struct ReaderLossTests {
        /// A simulated field whose reader can be "unplugged": from then on every call fails with the
        /// error pcscd's absence or a removed reader gives (see PCSCStatus.transportError).
        final class VanishingReader: ReaderDriver, @unchecked Sendable {
            let field: SimulatedField
            let failure = Guarded<TransportError?>(nil)
            init(_ field: SimulatedField) { self.field = field }
            var name: String { "vanishing" }
            func vanish(_ error: TransportError) { failure.withLock { $0 = error } }
            func check() throws(TransportError) { if let error = failure.withLock({ $0 }) { throw error } }

            func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
                try check()
                return try await field.targets(matching: mask)
            }
            func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> { await field.events(matching: mask) }
            func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
                try check()
                return Connection(inner: try await field.connect(to: target, meter: meter), reader: self)
            }

            final class Connection: TagConnection, @unchecked Sendable {
                let inner: any TagConnection
                let reader: VanishingReader
                init(inner: any TagConnection, reader: VanishingReader) {
                    self.inner = inner
                    self.reader = reader
                }
                var target: TargetInfo { inner.target }
                var limits: ExchangeLimits { inner.limits }
                var bitRate: BitRate { inner.bitRate }
                var meter: AirTimeMeter { inner.meter }
                func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
                    try reader.check()
                    return try await inner.transceive(command, timeout: timeout)
                }
                func reactivate() async throws(TransportError) {
                    try reader.check()
                    try await inner.reactivate()
                }
                func disconnect() async { await inner.disconnect() }
            }
        }

        static func ndefTag(_ tag: NFCTag) throws -> any NFCNDEFTag {
            switch tag {
            case .miFare(let t): return t
            case .iso7816(let t): return t
            default: throw NFCReaderError(.readerErrorInvalidParameter)
            }
        }

        @Test(
            "the reader is unplugged or pcscd stops mid-session: commands and connect fail typed, the session ends once",
            arguments: [
                TransportError(.readerRemoved, "no PC/SC reader is connected"), TransportError(.serviceUnavailable, "pcscd is not running"),
            ])
        func readerVanishes(error: TransportError) async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag215.make(), try VirtualTagKind.type4.make()])
            let reader = VanishingReader(bench.field)
            NFCSessionEnvironment.shared.driver = reader
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            _ = await delegate.log.next()
            // The two tags may come in one detection or two.
            var tags: [NFCTag] = []
            while tags.count < 2 {
                guard case .tags(let more)? = await delegate.log.next() else {
                    Issue.record("expected two tags, got \(tags.count)")
                    return
                }
                tags += more
            }
            let first = tags[0]
            let second = tags[1]
            try await session.connect(to: first)
            reader.vanish(error)
            // The connected tag: its NDEF read fails as a lost connection.
            let ndef = try Self.ndefTag(first)
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) { try await ndef.readNDEF() }
            // Its completion-handler form is called once, with an error.
            let calls = Guarded(0)
            let stream = AsyncStream<(any Error)?>.makeStream()
            ndef.queryNDEFStatus { _, _, error in
                calls.withLock { $0 += 1 }
                stream.continuation.yield(error)
            }
            var answers = stream.stream.makeAsyncIterator()
            let answer = await answers.next()
            #expect((answer ?? nil) is NFCReaderError)
            // The other tag: connect may reuse the connection opened when it was detected (an ISO
            // 7816 tag is selected then), but nothing can be read from it.
            let other = try Self.ndefTag(second)
            do {
                try await session.connect(to: second)
                await expectReaderError(.readerTransceiveErrorTagConnectionLost) { try await other.readNDEF() }
            } catch let error as NFCReaderError {
                #expect(error.code == .readerTransceiveErrorTagConnectionLost)
            }
            // Polling again finds nothing: the reader is gone.
            session.restartPolling()
            #expect(session.isReady)
            session.invalidate()
            #expect(await delegate.log.nextSignificant()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            #expect(calls.withLock { $0 } == 1)
            _ = bench
        }
    }
}
