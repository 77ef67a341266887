import Dispatch
import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC

/// Sessions begun and invalidated one after another on the simulated field, each checked to
/// call its delegate exactly once for becoming active and once for ending (with the
/// user-cancelled code); every tenth session also waits for the tag in the field, connects to it
/// and reads its NDEF status before it is invalidated.
enum SessionSoak {
    enum Event: Sendable {
        case active
        case tags([NFCTag])
        case invalidated(NFCReaderError.Code?)
    }

    final class Delegate: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
        let events: AsyncStream<Event>
        private let continuation: AsyncStream<Event>.Continuation

        override init() {
            (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        }

        func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { continuation.yield(.active) }
        func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) { continuation.yield(.tags(tags)) }
        func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
            continuation.yield(.invalidated((error as? NFCReaderError)?.code))
            continuation.finish()
        }
    }

    /// - Parameters:
    ///   - simulatedClock: run the sessions' 60-second timers on a `SimulatedClock` (nothing is
    ///     left behind when a session ends) instead of the continuous clock, whose cancelled
    ///     sleeps stay queued in the Swift runtime until their deadline.
    ///   - lifetime: the session time limit (Core NFC: 60 s).
    static func run(sessions: Int, samples: Int, simulatedClock: Bool, lifetime: Duration) async throws -> (SampleLog, Double) {
        let clock = SimulatedClock()
        let field = SimulatedField(clock: clock)
        await field.place(try VirtualTagKind.ntag215.make())
        NFCSessionEnvironment.shared.driver = field
        if simulatedClock { NFCSessionEnvironment.shared.clock = clock }
        NFCSessionEnvironment.shared.sessionLifetime = lifetime
        NFCSessionEnvironment.shared.appConfiguration = NFCAppConfiguration(
            usageDescription: "Soak test.", readerSessionFormats: [.tag], iso7816SelectIdentifiers: ["D2760000850101"],
            felicaSystemCodes: ["12FC"]
        )
        var log = SampleLog(phase: "sessions")
        log.take(after: 0)
        let every = max(1, sessions / max(1, samples))
        let wall = ContinuousClock()
        let start = wall.now
        for number in 0..<sessions {
            let delegate = Delegate()
            guard let session = NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil) else {
                throw SimulatedSoak.Failure(description: "session \(number) could not be made")
            }
            session.begin()
            var iterator = delegate.events.makeAsyncIterator()
            guard case .active? = await iterator.next() else {
                throw SimulatedSoak.Failure(description: "session \(number) did not become active")
            }
            if number % 10 == 0 {
                guard case .tags(let tags)? = await iterator.next(), let tag = tags.first, case .miFare(let mifare) = tag else {
                    throw SimulatedSoak.Failure(description: "session \(number) did not detect the NTAG")
                }
                try await session.connect(to: tag)
                let (status, _) = try await mifare.queryNDEFStatus()
                guard status == .readWrite else { throw SimulatedSoak.Failure(description: "session \(number): NDEF status \(status)") }
            }
            session.invalidate()
            var endings = 0
            while let event = await iterator.next() {
                switch event {
                case .active: throw SimulatedSoak.Failure(description: "session \(number) became active twice")
                case .tags: continue  // detection racing with invalidate is allowed
                case .invalidated(let code):
                    endings += 1
                    guard code == .readerSessionInvalidationErrorUserCanceled else {
                        throw SimulatedSoak.Failure(description: "session \(number) ended with \(String(describing: code))")
                    }
                }
            }
            guard endings == 1 else { throw SimulatedSoak.Failure(description: "session \(number) ended \(endings) times") }
            if (number + 1) % every == 0 { log.take(after: number + 1) }
        }
        let seconds = start.duration(to: wall.now) / .seconds(1)
        NFCSessionEnvironment.shared.reset()
        return (log, Double(sessions) / seconds)
    }
}
