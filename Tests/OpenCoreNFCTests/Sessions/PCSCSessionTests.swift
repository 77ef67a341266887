import Foundation
import NFCPCSC
import NFCSimulator
import NFCTestSupport
import NFCTransport
import OpenCoreNFC
import Testing

/// Core NFC's NDEF flows on a real PC/SC stack: pcscd, vpcd's first reader and an emulated
/// NTAG216, with `OPENCORENFC_READER=pcsc`'s driver injected.
extension SessionTests {
    @Suite(.enabled(if: LivePCSC.shouldRun, Comment(rawValue: LivePCSC.skipReason)))
    struct PCSCSessionTests {
        static let slot = LivePCSC.Slot.first

        init() {
            if let reason = LivePCSC.unavailableReason { Issue.record("OPENCORENFC_REQUIRE_PCSCD=1 but \(reason)") }
            NFCSessionEnvironment.shared.reset()
            NFCSessionEnvironment.shared.driver = PCSCDriver(readerFilter: Self.slot.reader)
            NFCSessionEnvironment.shared.appConfiguration = SessionBench.appConfiguration
        }

        /// Takes the card (still on the reader) away and waits until pcscd reports it gone, so that
        /// the next test's card is not taken for this one.
        func remove(_ card: LiveCard) async {
            let driver = PCSCDriver(readerFilter: Self.slot.reader)
            var events = await driver.events(matching: .all).makeAsyncIterator()
            while let event = await events.next() {
                if case .targetArrived = event { break }  // the stream starts with what is present
            }
            card.stop()
            while let event = await events.next() {
                if case .targetLeft = event { return }
            }
        }

        @Test func tagLeavingMidWriteIsConnectionLost() async throws {
            // GET DATA to identify, then a few commands of the write: the card leaves at the 6th.
            let card = LiveCard(try VirtualTagKind.ntag216.make(), slot: Self.slot, removeAfter: 6)
            let writer = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefTags(let tags)? = await writer.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected didDetect tags")
                await remove(card)
                return
            }
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) {
                try await session.connect(to: tag)
                try await tag.writeNDEF(
                    NFCNDEFMessage(records: [
                        NFCNDEFPayload.wellKnownTypeTextPayload(
                            string: String(repeating: "x", count: 300), locale: Locale(identifier: "en"))!
                    ]))
            }
            session.invalidate()
            // The card's thread records the removal after closing vpcd's socket, so the error can
            // arrive first: wait for the thread to end before asking.
            card.stop()
            #expect(card.wasRemoved)
        }
    }
}
