import Foundation
import ISO7816
import NFCSimulator
import NFCTransport
import NFCeMRTD
import OpenCoreNFC
import Testing
import X509

/// A passport read through `NFCTagReaderSession` as iOS passport apps do: the app's Info.plist
/// lists the ICAO AID A0000002471001 in its select identifiers, the session delivers the chip as
/// an `NFCISO7816Tag` with that AID selected, and the reader runs over `sendCommand(apdu:)`.
extension SessionTests {
    @Suite struct PassportSessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Reads your passport's chip.", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: ["A0000002471001"]
        )

        @Test func bacAndPassiveAuthenticationThroughTheSession() async throws {
            let applet = try PassportIssuer.issue(PassportHolder())
            let csca = try Certificate(derEncoded: applet.cscaCertificate)
            let bench = await SessionBench([PassportApplet.card(applet)], configuration: Self.configuration)
            _ = bench
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first,
                case .iso7816(let chip) = tag
            else {
                Issue.record("expected the passport as an ISO 7816 tag")
                session.invalidate()
                return
            }
            #expect(chip.initialSelectedAID == "A0000002471001")
            try await session.connect(to: tag)
            do {
                let key = try MRZKey(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")
                let reader = PassportReader(
                    transmitter: NFCISO7816TagTransmitter(tag: chip, supportsExtendedLength: true),
                    trustAnchors: [csca])
                let reading = try await reader.read(access: .bac(key))
                #expect(reading.mrz.primaryIdentifier == "ERIKSSON")
                #expect(reading.face?.format == .jpeg)
                #expect(reading.passiveAuthentication.verdict.passed, "\(reading.passiveAuthentication.verdict)")
                #expect(reading.chipAuthentication.isVerified, "\(reading.chipAuthentication)")
                #expect(reading.activeAuthentication.isVerified, "\(reading.activeAuthentication)")
            } catch {
                session.invalidate()
                throw error
            }
            session.invalidate()
        }

        /// Apple's `PollingOption.pace` (iOS 16): only PACE-capable ISO 7816 cards are delivered —
        /// here a passport with PACE among an NTAG and a BAC-only passport — and the tag says
        /// `supportsPACE`; the app then runs PACE (integrated mapping) with the CAN over
        /// `sendCommand(apdu:)`, then chip and active authentication.
        @Test func aPACESessionDeliversOnlyThePACEChip() async throws {
            var configuration = Self.configuration
            configuration.readerSessionFormatValues = ["TAG", "PACE"]
            let paceChip = try PassportIssuer.issue(
                PassportHolder(documentNumber: "P4C3", pace: PassportApplet.PACESettings(can: "500540", integratedMapping: true)))
            let bacOnly = try PassportIssuer.issue(PassportHolder(pace: nil))
            let bench = await SessionBench(
                [try VirtualTagKind.ntag213.make(), PassportApplet.card(bacOnly, uid: [0x08, 1, 2, 3]), PassportApplet.card(paceChip)],
                configuration: configuration)
            _ = bench
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .pace, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .iso7816(let chip) = tags.first else {
                Issue.record("expected one ISO 7816 tag")
                session.invalidate()
                return
            }
            #expect(tags.count == 1)
            #expect(chip.supportsPACE)
            try await session.connect(to: tags[0])
            do {
                let reading = try await PassportReader(transmitter: NFCISO7816TagTransmitter(tag: chip, supportsExtendedLength: true))
                    .read(access: .pace(.can("500540")), files: [.dataGroup(1)])
                #expect(reading.accessProtocol == .pace && reading.mrz.documentNumber == "P4C3")
                #expect(reading.pace?.mapping == .integrated)
                #expect(reading.chipAuthentication.isVerified && reading.activeAuthentication.isVerified)
            } catch {
                session.invalidate()
                throw error
            }
            session.invalidate()
        }

        /// In an ISO 14443 session a BAC-only passport's tag does not claim PACE.
        @Test func aBACOnlyChipDoesNotSupportPACE() async throws {
            let bench = await SessionBench(
                [PassportApplet.card(try PassportIssuer.issue(PassportHolder(pace: nil)))], configuration: Self.configuration)
            _ = bench
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: .iso14443, delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), case .iso7816(let chip) = tags.first else {
                Issue.record("expected the passport")
                session.invalidate()
                return
            }
            #expect(!chip.supportsPACE)
            #expect(chip.initialSelectedAID == "A0000002471001")
            session.invalidate()
        }
    }
}
