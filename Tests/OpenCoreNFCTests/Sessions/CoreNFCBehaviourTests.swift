import NFCSimulator
import OpenCoreNFC
import Testing

/// Where apps branch, a session behaves as a phone does (issue 25): each test states Apple's
/// behaviour and the header or page it comes from, through the public API only.
extension SessionTests {
    @Suite struct CoreNFCBehaviourTests {
        /// `isReady` turns true when the session becomes active, not when `begin()` returns
        /// (Apple's `ready`: "started and ready to use"). With the delegate queue held, the
        /// session cannot have told its delegate yet.
        @Test func isReadyTurnsTrueWithDidBecomeActive() async throws {
            let bench = await SessionBench([])
            let queue = DispatchQueue(label: "held")
            queue.suspend()
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: queue, invalidateAfterFirstRead: false)
            session.begin()
            #expect(!session.isReady)
            queue.resume()
            guard case .becameActive? = await delegate.log.next() else {
                Issue.record("expected readerSessionDidBecomeActive")
                return
            }
            #expect(session.isReady)
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        /// The delegate is held weakly (`NFCReaderSession.h`: `@property (weak, readonly) id delegate`):
        /// a delegate the app does not keep is gone.
        @Test func theDelegateIsHeldWeakly() async throws {
            let bench = await SessionBench([])
            var delegate: NDEFReaderDelegate? = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate!, queue: nil, invalidateAfterFirstRead: false)
            #expect(session.delegate != nil)
            delegate = nil
            #expect(session.delegate == nil)
            _ = bench
        }

        /// A tag that left the field is no longer available (`NFCTag.h`, `available`), and
        /// `connectedTag` forgets it; commands to it fail with a lost connection.
        @Test func aTagThatLeftIsUnavailableAndNotTheConnectedTag() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected the NTAG")
                return
            }
            try await session.connect(to: tag)
            #expect(tag.isAvailable)
            #expect(session.connectedTag != nil)
            await bench.field.removeAll()
            // The first command finds it gone; from then on it is unavailable.
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x00]))
            }
            #expect(!tag.isAvailable)
            #expect(session.connectedTag == nil)
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x00]))
            }
            session.invalidate()
            _ = await delegate.log.next()
        }

        /// Another tag connected: the first is no longer available (`NFCTag.h`).
        @Test func connectingAnotherTagMakesTheFirstUnavailable() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make(), try VirtualTagKind.ntag215.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), tags.count == 2 else {
                Issue.record("expected both NTAGs")
                return
            }
            try await session.connect(to: tags[0])
            #expect(tags[0].isAvailable && !tags[1].isAvailable)
            try await session.connect(to: tags[1])
            #expect(!tags[0].isAvailable && tags[1].isAvailable)
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        /// After `didDetect tags`, a tag session finds new tags only after `restartPolling()`
        /// (`NFCTagReaderSession.h`, `restartPolling`): a tag placed meanwhile arrives with the
        /// restart, beside the resting one — not on its own before it.
        @Test func aTagSessionFindsNewTagsOnlyAfterRestartPolling() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let first)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the first NTAG")
                return
            }
            #expect(first.count == 1)
            await bench.field.place(try VirtualTagKind.ntag215.make())
            session.restartPolling()
            guard case .tags(let second)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the tags after restartPolling")
                return
            }
            #expect(second.count == 2)
            session.invalidate()
            _ = await delegate.log.next()
        }

        /// A read-only NDEF session that keeps reading reads a tag again once it was removed and
        /// tapped again: "polling is automatically restarted once the detected tag is removed from
        /// the RF field" (`NFCNDEFReaderSession.h`).
        @Test func aReadOnlyNDEFSessionReadsARetappedTagAgain() async throws {
            // A Type 4 tag holding a one-record message (a Text record "").
            let bench = await SessionBench([])
            let id = await bench.field.place(try Type4Tag(message: [0xD1, 0x01, 0x03, 0x54, 0x02, 0x65, 0x6E]))
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefs? = await delegate.log.nextSignificant() else {
                Issue.record("expected the first read")
                return
            }
            _ = await bench.field.remove(id)
            #expect(await bench.field.reinsert(id))
            guard case .ndefs? = await delegate.log.nextSignificant() else {
                Issue.record("expected the re-tapped tag to be read again")
                return
            }
            session.invalidate()
            _ = await delegate.log.next()
        }

        /// A SELECT of an AID the Info.plist does not declare, or of a payment AID, never reaches
        /// the card: `readerErrorSecurityViolation` (2).
        @Test func aSelectOfAnUndeclaredOrPaymentAIDIsRefused() async throws {
            let bench = await SessionBench([try VirtualTagKind.type4.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .iso7816(let card) = tag else {
                Issue.record("expected the Type 4 tag")
                return
            }
            try await session.connect(to: tag)
            for aid: [UInt8] in [
                [0xA0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01], Array("2PAY.SYS.DDF01".utf8), [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10],
            ] {
                let select = NFCISO7816APDU(
                    instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00, data: Data(aid),
                    expectedResponseLength: 256)
                await expectReaderError(.readerErrorSecurityViolation) { try await card.sendCommand(apdu: select) }
            }
            // The declared NDEF application is selectable.
            let ndef = NFCISO7816APDU(
                instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256)
            let (_, sw1, sw2) = try await card.sendCommand(apdu: ndef)
            #expect(sw1 == 0x90 && sw2 == 0x00)
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        /// `.pace` cannot be combined with other polling options (Apple's `PollingOption.pace`).
        @Test func paceWithOtherOptionsIsRefused() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.readerSessionFormatValues = ["TAG", "PACE"]
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.pace, .iso14443], delegate: delegate, queue: nil))
            session.begin()
            guard case .invalidated(let ended)? = await delegate.log.nextSignificant(), let error = ended as? NFCReaderError else {
                Issue.record("expected the session to end")
                return
            }
            #expect(error.code == .readerErrorInvalidParameter)
            _ = bench
        }

        /// FeliCa system codes may not hold the wildcard `FF` in either byte (Apple's reference for
        /// the system-codes key): `88FF` is refused as `FFFF` is.
        @Test(arguments: ["88FF", "FFB4", "FFFF"])
        func aSystemCodeWithAWildcardByteIsRefused(code: String) async throws {
            var configuration = SessionBench.appConfiguration
            configuration.felicaSystemCodeValues = ["12FC", code]
            let bench = await SessionBench([try VirtualTagKind.felica.make()], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso18092, delegate: delegate, queue: nil))
            session.begin()
            guard case .invalidated(let ended)? = await delegate.log.nextSignificant(), let error = ended as? NFCReaderError else {
                Issue.record("expected the session to end")
                return
            }
            #expect(error.code == .readerErrorSecurityViolation)
            _ = bench
        }

        /// A command the tag refuses with a 4-bit NAK — here a READ sent with a CRC appended,
        /// which the reader adds itself — is a tag response error (102), not data.
        @Test func aNAKIsATagResponseError() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected the NTAG")
                return
            }
            try await session.connect(to: tag)
            #expect(try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x00])).count == 16)
            await expectReaderError(.readerTransceiveErrorTagResponseError) {
                try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x00, 0x02, 0xA8]))
            }
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }
    }
}
