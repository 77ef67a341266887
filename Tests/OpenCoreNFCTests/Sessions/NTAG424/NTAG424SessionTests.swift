import Foundation
import ISO7816
import NFCDESFire
import NFCSimulator
import OpenCoreNFC
import Testing

/// Core NFC and the NTAG 424 DNA, as iOS apps drive it (Bolt Card and SUN libraries): listed under
/// `D2760000850101` the tag arrives as `NFCISO7816Tag` with its application selected (Apple's
/// `NFCMiFareTag` and `NFCISO7816Tag` documentation), the client runs over `apduTransmitter`;
/// an `NFCNDEFReaderSession` reads the SUN URL it mirrors.
extension SessionTests {
    @Suite struct NTAG424SessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Sets up SUN tags.", readerSessionFormats: [.tag, .ndef], iso7816SelectIdentifiers: ["D2760000850101"])
        static let zero = [UInt8](repeating: 0, count: 16)

        @Test func tagSessionClientThenNDEFSessionReadsAVerifiableURL() async throws {
            let bench = await SessionBench([NTAG424Tag()], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            // A failing step must not leave the session running: the next test's session would
            // wait for it on the simulated clock, which never reaches the time-out.
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .iso7816(let iso7816) = tag
            else {
                Issue.record("expected an ISO 7816 tag")
                return
            }
            #expect(iso7816.initialSelectedAID == "D2760000850101")
            try await session.connect(to: tag)
            // No ISOSelectFile: iOS selected the application already.
            let client = NTAG424Client(transmitter: iso7816.apduTransmitter)
            try await client.authenticate(keyNumber: 0, key: Self.zero)
            #expect(try await client.cardUID() == NTAG424Tag.defaultUID)
            let sun = try NTAG424SUNTemplate(url: "https://example.com/tap?picc_data={picc}&cmac={mac}", metaReadKey: 2, fileReadKey: 2)
            try await client.write(sun.ndefFile, file: 2)
            var settings = try await client.fileSettings(2)
            settings.sdm = sun.sdm
            try await client.changeFileSettings(2, to: settings)
            session.invalidate()
            _ = await delegate.log.next()

            let reader = NDEFReaderDelegate()
            let reading = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
            defer { reading.invalidate() }
            reading.begin()
            guard case .ndefs(let messages)? = await reader.log.nextSignificant(),
                let url = messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString
            else {
                Issue.record("expected didDetectNDEFs with a URI")
                return
            }
            let verified = try SUNMessage(url: url).verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
            #expect(verified.isValid, "\(url)")
            #expect(verified.piccData.uid == NTAG424Tag.defaultUID && verified.piccData.counter == 1)
            _ = bench
        }

        /// Without `D2760000850101` in the Info.plist the tag arrives as `NFCMiFareTag` (Apple's
        /// `NFCMiFareTag` documentation: "To receive the MIFARE DESFire tag as an NFCMiFareTag
        /// object, don't include D2760000850101"); a SELECT by that unlisted DF name is refused
        /// (`readerErrorSecurityViolation`), so the client selects by the file identifier `E110`
        /// and runs over `sendMiFareISO7816Command(_:)`.
        @Test func withoutTheAIDItIsAMiFareTag() async throws {
            let configuration = NFCAppConfiguration(usageDescription: "Reads DESFire-family tags.", readerSessionFormats: [.tag])
            let bench = await SessionBench([NTAG424Tag()], configuration: configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            // A failing step must not leave the session running: the next test's session would
            // wait for it on the simulated clock, which never reaches the time-out.
            defer { session.invalidate() }
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first, case .miFare(let mifare) = tag else {
                Issue.record("expected a MIFARE tag")
                return
            }
            #expect(mifare.mifareFamily == .desfire)
            try await session.connect(to: tag)
            let client = NTAG424Client(transmitter: mifare.apduTransmitter)
            let refused = await #expect(throws: NFCReaderError.self) { try await client.selectApplication() }
            #expect(refused?.code == .readerErrorSecurityViolation)
            try await client.selectApplication(by: .fileIdentifier)
            #expect(try await client.version().isNTAG424DNA)
            try await client.authenticate(keyNumber: 2, key: Self.zero)
            #expect(try await client.read(file: 3, length: 16) == Array(repeating: 0, count: 16))
            session.invalidate()
            _ = bench
        }
    }
}
