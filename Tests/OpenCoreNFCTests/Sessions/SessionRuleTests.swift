import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// Core NFC's session rules; each test fails if its rule is dropped.
extension SessionTests {
    @Suite struct SessionRuleTests {
        @Test func oneSessionAtATime() async throws {
            let bench = await SessionBench([])
            let first = NDEFReaderDelegate()
            let second = NDEFReaderDelegate()
            let a = NFCNDEFReaderSession(delegate: first, queue: nil, invalidateAfterFirstRead: false)
            let b = NFCNDEFReaderSession(delegate: second, queue: nil, invalidateAfterFirstRead: false)
            a.begin()
            guard case .becameActive? = await first.log.next() else {
                Issue.record("first session did not start")
                return
            }
            b.begin()
            #expect(await second.log.next()?.readerError?.code == .readerSessionInvalidationErrorSystemIsBusy)
            #expect(a.isReady)
            // Ending a session that does not hold the reader releases nothing: neither the refused
            // one invalidated again, nor one that never began. A further session is refused too.
            b.invalidate()
            let idle = NFCNDEFReaderSession(delegate: NDEFReaderDelegate(), queue: nil, invalidateAfterFirstRead: false)
            idle.invalidate()
            let refusedAgain = NDEFReaderDelegate()
            let b2 = NFCNDEFReaderSession(delegate: refusedAgain, queue: nil, invalidateAfterFirstRead: false)
            b2.begin()
            #expect(await refusedAgain.log.next()?.readerError?.code == .readerSessionInvalidationErrorSystemIsBusy)
            #expect(a.isReady)
            a.invalidate()
            _ = await first.log.next()
            // Once the first has ended, a new session may begin.
            let third = NDEFReaderDelegate()
            let c = NFCNDEFReaderSession(delegate: third, queue: nil, invalidateAfterFirstRead: false)
            c.begin()
            guard case .becameActive? = await third.log.next() else {
                Issue.record("the reader was not released")
                return
            }
            c.invalidate()
            _ = await third.log.next()
            _ = bench
        }

        @Test func sessionEndsAfterSixtySecondsOfSimulatedTime() async throws {
            let bench = await SessionBench([])
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            _ = await delegate.log.next()
            for _ in 0..<100_000 where bench.clock.sleeperCount == 0 { await Task.yield() }
            try #require(bench.clock.sleeperCount > 0, "the session armed no timer")
            bench.clock.advance(by: .seconds(59))
            #expect(session.isReady)
            bench.clock.advance(by: .seconds(1))
            #expect(await delegate.log.next()?.readerError?.code == .readerSessionInvalidationErrorSessionTimeout)
            #expect(!session.isReady)
        }

        @Test func anInvalidatedSessionNeverRestarts() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            _ = await delegate.log.next()
            session.invalidate()
            #expect(await delegate.log.next()?.readerError?.code == .readerSessionInvalidationErrorUserCanceled)
            session.begin()
            #expect(!session.isReady)
            _ = bench
        }

        /// With OPENCORENFC_READER set, the environment supplies a reader: skipped then, not passed.
        @Test(.disabled(if: ProcessInfo.processInfo.environment["OPENCORENFC_READER"] != nil, "OPENCORENFC_READER supplies a reader"))
        func noReaderMeansNoSession() async throws {
            NFCSessionEnvironment.shared.reset()
            NFCSessionEnvironment.shared.driver = nil
            NFCSessionEnvironment.shared.appConfiguration = SessionBench.appConfiguration
            #expect(!NFCNDEFReaderSession.readingAvailable)
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            #expect(await delegate.log.next()?.readerError?.code == .readerErrorUnsupportedFeature)
        }

        @Test func restartPollingMakesEarlierTagsUnavailable() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag216.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let first)? = await delegate.log.nextSignificant(), let old = first.first, case .miFare(let oldTag) = old
            else {
                Issue.record("expected a MIFARE tag")
                return
            }
            try await session.connect(to: old)
            #expect(old.isAvailable)
            session.restartPolling()
            guard case .tags(let second)? = await delegate.log.next(), let fresh = second.first else {
                Issue.record("expected the tag again after restartPolling")
                return
            }
            #expect(!old.isAvailable)
            #expect(fresh.isAvailable)
            await expectReaderError(.readerTransceiveErrorTagNotConnected) {
                try await oldTag.sendMiFareCommand(commandPacket: Data([0x30, 0x04]))
            }
            session.invalidate()
            _ = bench
        }

        @Test func commandsOnARemovedTagOrADeadSession() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443, .iso15693], delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected a MIFARE tag")
                return
            }
            await expectReaderError(.readerTransceiveErrorTagNotConnected) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04]))
            }
            try await session.connect(to: tag)
            #expect(try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x03])).prefix(4) == Data([0xE1, 0x10, 0x12, 0x00]))
            await bench.field.removeAll()
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x03]))
            }
            session.invalidate()
            _ = await delegate.log.next()
            await expectReaderError(.readerTransceiveErrorSessionInvalidated) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x03]))
            }
        }

        @Test func delegateCallsArriveOnTheGivenQueue() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let queue = DispatchQueue(label: "app.nfc")
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 42)
            final class QueueDelegate: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
                let log = EventLog()
                let key: DispatchSpecificKey<Int>
                init(key: DispatchSpecificKey<Int>) { self.key = key }
                func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
                    log.record(DispatchQueue.getSpecific(key: key) == 42 ? .becameActive : .invalidated(CancellationError()))
                }
                func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
                    log.record(.invalidated(error))
                }
                func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
                    log.record(DispatchQueue.getSpecific(key: key) == 42 ? .tags(tags) : .invalidated(CancellationError()))
                }
            }
            let delegate = QueueDelegate(key: key)
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: queue))
            session.begin()
            guard case .becameActive? = await delegate.log.next(), case .tags? = await delegate.log.next() else {
                Issue.record("delegate calls did not arrive on the given queue")
                return
            }
            session.invalidate()
            _ = bench
        }

        @Test func pollingOptionsChooseTechnologies() async throws {
            #expect(NFCTagReaderSession.PollingOption.iso14443.rawValue == 1)
            #expect(NFCTagReaderSession.PollingOption.iso15693.rawValue == 2)
            #expect(NFCTagReaderSession.PollingOption.iso18092.rawValue == 4)
            #expect(NFCTagReaderSession(pollingOption: [], delegate: TagReaderDelegate(), queue: nil) == nil)
            let bench = await SessionBench([try VirtualTagKind.ntag213.make(), try VirtualTagKind.slix2.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso15693, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected tags")
                return
            }
            #expect(tags.count == 1)
            if case .iso15693(let tag)? = tags.first {
                #expect(tag.icManufacturerCode == 0x04)
            } else {
                Issue.record("expected only the ISO 15693 tag")
            }
            session.invalidate()
            _ = bench
        }

        /// Core NFC selects only AIDs the Info.plist lists (`com.apple.developer.nfc.readersession.
        /// iso7816.select-identifiers`); a session configuration's `iso7816SelectIdentifiers` narrows
        /// and orders that list, never widens it (Apple, NFCTagReaderSession.Configuration).
        @Test func configurationAIDsAreNarrowedToTheInfoPlists() async throws {
            // Not an NXP UID: an NXP card no AID answers would arrive as MIFARE instead.
            let card = ISO7816Card(uid: [0x02, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6], applets: [ProbeApplet(), OATHApplet()])
            let plist = NFCAppConfiguration(
                usageDescription: "Reads cards.", readerSessionFormats: [.tag],
                iso7816SelectIdentifiers: ["D2760000850101", ProbeApplet.aidHex]
            )
            let bench = await SessionBench([card], configuration: plist)
            let delegate = TagReaderDelegate()
            // OATH is asked for first, but the Info.plist does not list it: the probe is selected.
            let session = NFCTagReaderSession(
                configuration: .init(pollingOption: .iso14443, iso7816SelectIdentifiers: ["A0000005272101", ProbeApplet.aidHex]),
                delegate: delegate
            )
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .iso7816(let tag)? = tags.first else {
                Issue.record("expected the ISO 7816 card")
                return
            }
            #expect(tag.initialSelectedAID == ProbeApplet.aidHex)
            session.invalidate()
            _ = await delegate.log.next()

            // Asked only for an AID the Info.plist lacks, the session selects nothing on the card and
            // does not deliver it; the NTAG beside it is delivered alone.
            await bench.field.place(try VirtualTagKind.ntag213.make())
            let narrowed = TagReaderDelegate()
            let none = NFCTagReaderSession(
                configuration: .init(pollingOption: .iso14443, iso7816SelectIdentifiers: ["A0000005272101"]), delegate: narrowed)
            none.begin()
            guard case .tags(let found)? = await narrowed.log.nextSignificant() else {
                Issue.record("expected the NTAG to be detected")
                return
            }
            #expect(found.count == 1)
            if case .miFare? = found.first {} else { Issue.record("expected only the NTAG, got \(found)") }
            none.invalidate()
            _ = await narrowed.log.next()
        }

        @Test func configurationChoosesPollingAndRestartPollingChangesIt() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make(), try VirtualTagKind.slix2.make()])
            let delegate = TagReaderDelegate()
            let session = NFCTagReaderSession(configuration: .init(pollingOption: .iso15693), delegate: delegate)
            session.begin()
            guard case .tags(let first)? = await delegate.log.nextSignificant(), case .iso15693? = first.first, first.count == 1 else {
                Issue.record("expected only the ISO 15693 tag")
                return
            }
            session.restartPolling(configuration: .init(pollingOption: .iso14443))
            guard case .tags(let second)? = await delegate.log.next(), case .miFare? = second.first, second.count == 1 else {
                Issue.record("expected only the MIFARE tag after restartPolling(configuration:)")
                return
            }
            #expect(session.pollingOption == .iso14443)
            session.invalidate()
            _ = bench
        }
    }
}
