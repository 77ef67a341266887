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
            } catch {
                session.invalidate()
                throw error
            }
            session.invalidate()
        }
    }
}
