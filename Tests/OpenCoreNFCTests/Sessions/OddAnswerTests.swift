import NFCSimulator
import OpenCoreNFC
import Testing

/// Point 14 of the Core NFC behaviour issue, as decided in docs/corenfc-differences.md: a tag that
/// does not answer in time is a tag response error (102) in NDEF operations as in raw commands,
/// and a SELECT answered with warning processing selects (ISO/IEC 7816-4 §5.6).
extension SessionTests {
    @Suite struct OddAnswerTests {
        /// An applet whose SELECT is answered `6283`, "selected file deactivated": processed, with a warning.
        struct DeactivatedApplet: ISO7816Applet {
            static let aidHex = "F0DEAC71BA7ED0"
            let aid: [UInt8] = [0xF0, 0xDE, 0xAC, 0x71, 0xBA, 0x7E, 0xD0]
            mutating func select(command: SimCommandAPDU) -> SimResponseAPDU { SimResponseAPDU(SimStatusWord(rawValue: 0x6283)) }
            mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU { SimResponseAPDU(.success) }
            var appletImage: ISO7816AppletImage? { nil }
        }

        @Test func aTagThatDoesNotAnswerDuringAnNDEFReadIsATagResponseError() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make()])
            let id = try #require(await bench.field.tagIDs.first)
            let delegate = NDEFWriterDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .ndefTags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first else {
                Issue.record("expected the NTAG")
                return
            }
            try await session.connect(to: tag)
            // Every answer of the read comes far too late: the tag is in the field but silent.
            for command in 1...8 { await bench.field.inject(.delayResponse(command: command, by: .seconds(600)), into: id) }
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.readNDEF() }
            session.invalidate()
            _ = await delegate.log.next()
        }

        @Test func aSelectAnsweredWithAWarningDeliversTheCard() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.iso7816SelectIdentifierValues = [DeactivatedApplet.aidHex]
            let card = ISO7816Card(uid: [0x02, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], applets: [DeactivatedApplet()])
            let bench = await SessionBench([card], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .iso7816(let iso)? = tags.first else {
                Issue.record("expected the card, selected with a warning")
                return
            }
            #expect(iso.initialSelectedAID == DeactivatedApplet.aidHex)
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }
    }
}
