import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// The Objective-C configuration class of iOS 26.4 (`NFCTagReaderSessionConfiguration`,
/// `restartPollingWithConfiguration:`) drives a session as the overlay's value type does.
extension SessionTests {
    @Suite struct TagReaderSessionConfigurationClassTests {
        @Test func theClassChoosesPollingAndRestartPollingWithChangesIt() async throws {
            let bench = await SessionBench([try VirtualTagKind.ntag213.make(), try VirtualTagKind.slix2.make()])
            let delegate = TagReaderDelegate()
            let configuration = NFCTagReaderSessionConfiguration(
                pollingOption: .iso15693, iso7816SelectIdentifiers: [], felicaSystemCodes: [])
            let session = NFCTagReaderSession(configuration: configuration, delegate: delegate, queue: nil)
            // The session keeps what it was given: changing the object afterwards changes nothing.
            configuration.polling = .iso18092
            session.begin()
            guard case .tags(let first)? = await delegate.log.nextSignificant(), case .iso15693? = first.first, first.count == 1 else {
                Issue.record("expected only the ISO 15693 tag")
                return
            }
            session.restartPolling(
                with: NFCTagReaderSessionConfiguration(pollingOption: .iso14443, iso7816SelectIdentifiers: [], felicaSystemCodes: []))
            guard case .tags(let second)? = await delegate.log.next(), case .miFare? = second.first, second.count == 1 else {
                Issue.record("expected only the MIFARE tag after restartPolling(with:)")
                return
            }
            #expect(session.pollingOption == .iso14443)
            let copy = try #require(configuration.copy() as? NFCTagReaderSessionConfiguration)
            #expect(copy !== configuration && copy.polling == .iso18092)
            session.invalidate()
            _ = bench
        }
    }
}
