import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// The app's Info.plist and entitlements, enforced at session time as Core NFC does.
extension SessionTests {
    @Suite struct AppConfigurationRuleTests {
        private func firstEvent(_ session: NFCReaderSession, _ log: EventLog) async -> DelegateEvent? {
            session.begin()
            return await log.next()
        }

        @Test func noUsageDescriptionRefusesToStart() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.usageDescription = nil
            let bench = await SessionBench([], configuration: configuration)
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            #expect(await firstEvent(session, delegate.log)?.readerError?.code == .readerErrorSecurityViolation)
            _ = bench
        }

        /// With OPENCORENFC_INFO_PLIST set, the environment supplies a configuration: the test is
        /// reported as skipped then, not passed.
        @Test(
            .disabled(
                if: ProcessInfo.processInfo.environment["OPENCORENFC_INFO_PLIST"] != nil, "OPENCORENFC_INFO_PLIST supplies a configuration")
        )
        func noConfigurationAtAllRefusesToStart() async throws {
            let bench = await SessionBench([], configuration: nil)
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            #expect(await firstEvent(session, delegate.log)?.readerError?.code == .readerErrorSecurityViolation)
            _ = bench
        }

        @Test func tagSessionsNeedTheTAGFormat() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.readerSessionFormatValues = ["NDEF"]
            let bench = await SessionBench([], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            #expect(await firstEvent(session, delegate.log)?.readerError?.code == .readerErrorSecurityViolation)
            _ = bench
        }

        @Test func pollingFeliCaNeedsSystemCodesAndNoWildcard() async throws {
            for codes in [nil, ["FFFF"]] as [[String]?] {
                var configuration = SessionBench.appConfiguration
                configuration.felicaSystemCodeValues = codes
                let bench = await SessionBench([], configuration: configuration)
                let delegate = TagReaderDelegate()
                let session = try #require(NFCTagReaderSession(pollingOption: .iso18092, delegate: delegate, queue: nil))
                let event = await firstEvent(session, delegate.log)
                #expect(event?.readerError != nil, "codes \(String(describing: codes))")
                _ = bench
            }
        }

        @Test func iso7816TagsArriveOnlyAfterAnAIDAnswers() async throws {
            // The app lists a payment AID (skipped), an absent AID, then the NDEF application.
            var configuration = SessionBench.appConfiguration
            configuration.iso7816SelectIdentifierValues = ["A0000000031010", "F0010203040506", "D2760000850101"]
            let bench = await SessionBench([try VirtualTagKind.type4.make()], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .iso7816(let card)? = tags.first else {
                Issue.record("expected an ISO 7816 tag")
                return
            }
            #expect(card.initialSelectedAID == "D2760000850101")
            try await session.connect(to: .iso7816(card))
            // SELECT the CC file and read it, as an app talking APDUs would.
            let select = NFCISO7816APDU(
                instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x00, p2Parameter: 0x0C, data: Data([0xE1, 0x03]),
                expectedResponseLength: -1)
            let (_, sw1, sw2) = try await card.sendCommand(apdu: select)
            #expect((sw1, sw2) == (0x90, 0x00))
            let read = NFCISO7816APDU(
                instructionClass: 0x00, instructionCode: 0xB0, p1Parameter: 0x00, p2Parameter: 0x00, data: Data(),
                expectedResponseLength: 15)
            let (cc, r1, r2) = try await card.sendCommand(apdu: read)
            #expect((r1, r2) == (0x90, 0x00))
            #expect(cc.count == 15)
            // The iOS 14 Result form.
            let result: Result<NFCISO7816ResponseAPDU, any Error> = await withCheckedContinuation { continuation in
                card.sendCommand(apdu: read, resultHandler: { continuation.resume(returning: $0) })
            }
            let response = try result.get()
            #expect(response.statusWord1 == 0x90 && response.statusWord2 == 0x00)
            #expect(response.payload == cc)
            session.invalidate()
            _ = bench
        }

        /// A card none of whose listed AIDs answers: an NXP ISO 14443-4 MIFARE (the Type 4 tag,
        /// NXP UID) arrives as `NFCMiFareTag` `.desfire` (Apple's `NFCMiFareTag` reference); a card
        /// of another maker is not delivered.
        @Test func aCardWithoutAListedAIDIsNotDeliveredUnlessItIsAnNXPMiFare() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.iso7816SelectIdentifierValues = ["F0010203040506"]
            let other = ProbeApplet.card(uid: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
            let bench = await SessionBench(
                [try VirtualTagKind.type4.make(), try VirtualTagKind.ntag213.make(), other], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant() else {
                Issue.record("expected the NTAG and the Type 4 tag")
                return
            }
            let families = tags.compactMap { tag -> NFCMiFareFamily? in
                if case .miFare(let mifare) = tag { return mifare.mifareFamily }
                return nil
            }
            #expect(tags.count == 2)
            #expect(Set(families.map(\.rawValue)) == [NFCMiFareFamily.ultralight.rawValue, NFCMiFareFamily.desfire.rawValue])
            session.invalidate()
            _ = bench
        }

        /// No AID to select at all and an ISO 7816 card of another maker: iOS ends the session with
        /// "Missing required entitlement" (NFCError 2, capawesome-team/capacitor-nfc-demo#12).
        @Test func anISO7816CardWithNoAIDToSelectEndsTheSession() async throws {
            var configuration = SessionBench.appConfiguration
            configuration.iso7816SelectIdentifierValues = []
            let bench = await SessionBench(
                [ProbeApplet.card(uid: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .invalidated(let ended)? = await delegate.log.nextSignificant(), let error = ended as? NFCReaderError else {
                Issue.record("expected the session to end")
                return
            }
            #expect(error.code == .readerErrorSecurityViolation)
            #expect((error.userInfo["NSLocalizedFailureReason"] as? String)?.contains("Missing required entitlement") == true)
            _ = bench
        }

        @Test func feliCaCardsArriveOnlyForAListedSystemCode() async throws {
            // A FeliCa Standard card answers 0003, FE00 and 12FC; the app lists FE00 only.
            var configuration = SessionBench.appConfiguration
            configuration.felicaSystemCodeValues = ["FE00"]
            let bench = await SessionBench([try VirtualTagKind.felica.make()], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso18092, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .feliCa(let card)? = tags.first else {
                Issue.record("expected the FeliCa card")
                return
            }
            #expect(card.currentSystemCode == Data([0xFE, 0x00]))
            #expect(card.currentIDm.first.map { $0 >> 4 } == 1)  // system 1's IDm
            session.invalidate()
            _ = await delegate.log.next()

            // A Lite-S answers only 88B4 (and 12FC when formatted): not delivered for FE00.
            let other = await SessionBench([try VirtualTagKind.felicaLiteS.make()], configuration: configuration)
            let quiet = TagReaderDelegate()
            let second = try #require(NFCTagReaderSession(pollingOption: .iso18092, delegate: quiet, queue: nil))
            second.begin()
            guard case .becameActive? = await quiet.log.next() else {
                Issue.record("expected the session to start")
                return
            }
            // Nothing else arrives; the 60 s limit then ends the session.
            for _ in 0..<100_000 where other.clock.sleeperCount == 0 { await Task.yield() }
            other.clock.advance(by: .seconds(60))
            #expect(await quiet.log.next()?.readerError?.code == .readerSessionInvalidationErrorSessionTimeout)
            _ = bench
        }
    }
}
