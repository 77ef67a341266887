import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// `NFCPaymentTagReaderSession` (iOS 26): payment AIDs are selectable there and nowhere else,
/// only ISO 7816 cards are delivered, and the session is offered only in an eligible region.
extension SessionTests {
    @Suite struct PaymentTagReaderSessionTests {
        static let visa: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]
        static let mastercard: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10]

        /// A payment application as a test double: its FCI on SELECT, `9000` to anything else.
        struct PaymentApplet: ISO7816Applet {
            let aid: [UInt8]
            func select(command: SimCommandAPDU) -> SimResponseAPDU {
                SimResponseAPDU(data: [0x6F, UInt8(aid.count + 2), 0x84, UInt8(aid.count)] + aid)
            }
            func process(_ command: SimCommandAPDU) -> SimResponseAPDU { SimResponseAPDU(.success) }
            var appletImage: ISO7816AppletImage? { nil }
        }

        static func bench(region: Bool = true) async -> SessionBench {
            var configuration = SessionBench.appConfiguration
            configuration.iso7816SelectIdentifierValues = ["A0000000031010", "D2760000850101"]
            // Not an NXP chip (UID not starting 04), so no session delivers it as MIFARE instead.
            let card = ISO7816Card(
                uid: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], applets: [PaymentApplet(aid: visa), PaymentApplet(aid: mastercard)])
            let ntag = (try? VirtualTagKind.ntag213.make()).map { [$0] } ?? []
            let bench = await SessionBench(ntag + [card], configuration: configuration)
            NFCSessionEnvironment.shared.isInEligibleRegion = region
            return bench
        }

        @Test func aPaymentSessionSelectsTheDeclaredPaymentAID() async throws {
            let bench = await Self.bench()
            #expect(NFCPaymentTagReaderSession.readingAvailable)
            let delegate = TagReaderDelegate()
            let session = NFCPaymentTagReaderSession(delegate: delegate)
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the payment card")
                return
            }
            // The NTAG is not a payment tag: only the ISO 7816 card comes.
            #expect(tags.count == 1)
            guard let tag = tags.first, case .iso7816(let card) = tag else {
                Issue.record("expected an ISO 7816 tag, got \(tags)")
                return
            }
            #expect(card.initialSelectedAID == "A0000000031010")
            try await session.connect(to: tag)
            let select = { (aid: [UInt8]) in
                NFCISO7816APDU(
                    instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00, data: Data(aid),
                    expectedResponseLength: 256)
            }
            let (fci, sw1, sw2) = try await card.sendCommand(apdu: select(Self.visa))
            #expect(sw1 == 0x90 && sw2 == 0x00)
            #expect(fci == Data([0x6F, 0x09, 0x84, 0x07] + Self.visa))
            // The overlay's form returning NFCISO7816ResponseAPDU, picked by the declared type.
            let response: NFCISO7816ResponseAPDU = try await card.sendCommand(apdu: select(Self.visa))
            #expect(response.statusWord1 == 0x90 && response.payload == fci)
            // A payment AID the app does not declare stays out of reach.
            await expectReaderError(.readerErrorSecurityViolation) { try await card.sendCommand(apdu: select(Self.mastercard)) }
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        @Test func aTagSessionStillNeverSelectsThePaymentAID() async throws {
            let bench = await Self.bench()
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the NTAG")
                return
            }
            // The card answers only payment AIDs, which a tag session skips: the NTAG alone comes.
            #expect(tags.count == 1)
            if case .miFare? = tags.first {} else { Issue.record("expected only the NTAG, got \(tags)") }
            session.invalidate()
            _ = await delegate.log.next()
            _ = bench
        }

        @Test func outsideAnEligibleRegionThePaymentSessionIsIneligible() async throws {
            let bench = await Self.bench(region: false)
            #expect(!NFCPaymentTagReaderSession.readingAvailable)
            #expect(NFCTagReaderSession.readingAvailable)
            let delegate = TagReaderDelegate()
            let session = NFCPaymentTagReaderSession(delegate: delegate)
            session.begin()
            guard case .invalidated(let ended)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the session to end")
                return
            }
            #expect((ended as? NFCReaderError)?.code == .readerErrorIneligible)
            _ = bench
        }
    }
}
