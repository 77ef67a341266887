import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// The iOS 11 ISO 15693 session (`__NFCISO15693ReaderSession`, deprecated in iOS 17): tags come
/// as `__NFCTag`s without `connect`, the iOS 11 configuration calls work there, and
/// `restartPolling()` finds the tag again.
final class LegacyDelegate: NSObject, __NFCReaderSessionDelegate, @unchecked Sendable {
    let log = EventLog()
    private let lock = NSLock()
    private var tags: [any __NFCTag] = []
    /// The tags of the last `didDetect`.
    var found: [any __NFCTag] { lock.withLock { tags } }
    func readerSessionDidBecomeActive(_ session: NFCReaderSession) { log.record(.becameActive) }
    func readerSession(_ session: NFCReaderSession, didInvalidateWithError error: any Error) { log.record(.invalidated(error)) }
    func readerSession(_ session: NFCReaderSession, didDetect tags: [any __NFCTag]) {
        lock.withLock { self.tags = tags }
        log.record(.ndefTags([]))
    }
}

extension SessionTests {
    @Suite struct LegacyISO15693SessionTests {
        @Test func theIOS11SessionReadsWithTheConfigurationCalls() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make(), try VirtualTagKind.slix2.make()])
            let delegate = LegacyDelegate()
            let session = __NFCISO15693ReaderSession(delegate: delegate, queue: nil)
            session.begin()
            guard case .ndefTags? = await delegate.log.nextSignificant() else {
                Issue.record("expected readerSession(_:didDetect:)")
                return
            }
            // Only the ISO 15693 tag: the session polls nothing else.
            let found = delegate.found
            #expect(found.count == 1)
            let tag = try #require(found.first?.asNFCISO15693Tag())  // fails the test when nil
            #expect(found.first?.asNFCMiFareTag() == nil)
            #expect(found.first?.asNFCISO7816Tag() == nil)
            #expect(found.first?.asNFCFeliCaTag() == nil)
            #expect(found.first?.type == .ISO15693)
            // No connect: the iOS 11 calls work at once. The SLIX2 holds its capability container
            // in block 0 (NXP SL2S2602 §8.1.4, as the flow tests read it).
            let configuration = NFCISO15693ReadMultipleBlocksConfiguration(range: NSRange(location: 0, length: 4), chunkSize: 3)
            let bytes = try await tag.readMultipleBlock(readConfiguration: configuration)
            #expect(bytes.count == 16)
            #expect(bytes.prefix(4) == Data([0xE1, 0x40, 0x27, 0x01]))
            // GET NXP SYSTEM INFORMATION (0xAB) through the iOS 11 custom command configuration.
            let custom = NFCISO15693CustomCommandConfiguration(manufacturerCode: 0x04, customCommandCode: 0xAB, requestParameters: nil)
            #expect(try await tag.sendCustomCommand(commandConfiguration: custom) == Data([0x00, 0x00, 0x00, 0x7F, 0x35, 0x00, 0x00]))
            // The deprecated async spellings.
            let (dsfid, afi, blockSize, blocks, icReference) = try await tag.getSystemInfo(requestFlags: [.highDataRate])
            #expect([dsfid, afi, blockSize, blocks, icReference] == [Int]([0, 0, 4, 80, 1]))
            // The overlay's Result form of Fast Read Multiple Blocks: the SLIX2 has no 0x2D, so
            // the tag's error 0x01 (command not supported) comes back as a failure.
            let fast = await withCheckedContinuation { (done: CheckedContinuation<Result<[Data], any Error>, Never>) in
                tag.fastReadMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 0, length: 2)) {
                    done.resume(returning: $0)
                }
            }
            guard case .failure(let error as NFCReaderError) = fast else {
                Issue.record("expected a failure, got \(fast)")
                return
            }
            #expect(error.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x01)

            // restartPolling: the old tag object is done, the tag is found again.
            session.restartPolling()
            guard case .ndefTags? = await delegate.log.next() else {
                Issue.record("expected the tag again after restartPolling()")
                return
            }
            #expect(!(found.first?.isAvailable ?? true))
            #expect(delegate.found.first?.isAvailable == true)
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        @Test func theIOS11SessionNeedsTheTagFormat() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.readerSessionFormatValues = ["NDEF"]
            let bench = await SessionBench([try VirtualTagKind.slix2.make()], configuration: configuration)
            let delegate = LegacyDelegate()
            let session = __NFCISO15693ReaderSession(delegate: delegate, queue: nil)
            session.begin()
            guard case .invalidated(let ended)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the session to end")
                return
            }
            #expect((ended as? NFCReaderError)?.code == .readerErrorSecurityViolation)
            _ = bench
        }
    }
}
