import NDEF
import NFCSimulator
import OpenCoreNFC
import Testing

/// Background reading is off while the app's own reader session is in progress.
extension SessionTests {
    @Suite struct BackgroundReadingSessionTests {
        @Test func readerSessionTurnsBackgroundReadingOff() async throws {
            let bench = await SessionBench([])
            let message = NDEFMessage(try URIRecord(uri: "https://example.org/").record())
            let reader = NFCBackgroundTagReader()
            #expect(!NFCBackgroundDeviceState.current().contains(.readerSessionInProgress))
            #expect(reader.dispatch(message).outcome == .delivered(.system(.safari)))
            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: false)
            session.begin()
            guard case .becameActive? = await delegate.log.next() else {
                Issue.record("the session did not start")
                return
            }
            #expect(NFCBackgroundDeviceState.current().contains(.readerSessionInProgress))
            #expect(reader.dispatch(message).outcome == .notDelivered(.unavailable(.readerSessionInProgress)))
            session.invalidate()
            _ = await delegate.log.next()
            #expect(!NFCBackgroundDeviceState.current().contains(.readerSessionInProgress))
            #expect(reader.dispatch(message).outcome == .delivered(.system(.safari)))
            _ = bench
        }
    }
}
