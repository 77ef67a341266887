import Foundation
import NFCBytes
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// All session tests share the process-wide environment and the one-session-at-a-time rule,
/// so they run one after another under this suite.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SessionTests {}

/// Everything a delegate saw, in order, as an async stream the test awaits.
enum DelegateEvent: @unchecked Sendable {
    case becameActive
    case invalidated(any Error)
    case ndefs([NFCNDEFMessage])
    case ndefTags([any NFCNDEFTag])
    case tags([NFCTag])

    var readerError: NFCReaderError? {
        if case .invalidated(let error) = self { return error as? NFCReaderError }
        return nil
    }
}

/// Collects delegate events in order; tests await them one by one.
final class EventLog: Sendable {
    private struct State {
        var buffer: [DelegateEvent] = []
        var waiter: (id: Int, continuation: CheckedContinuation<DelegateEvent?, Never>)?
        var nextID = 0
    }

    private let state = Guarded(State())

    func record(_ event: DelegateEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<DelegateEvent?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter.continuation
            }
            state.buffer.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next event; nil when the test is cancelled (the suite's time limit ends a test whose
    /// rule is broken instead of letting it hang; no test waits on time).
    func next() async -> DelegateEvent? {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DelegateEvent?, Never>) in
                let ready = state.withLock { state -> DelegateEvent?? in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiter = (id, continuation)
                    return .none
                }
                if case .some(let event) = ready { continuation.resume(returning: event) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<DelegateEvent?, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// The next event that is not `becameActive`.
    func nextSignificant() async -> DelegateEvent? {
        while let event = await next() {
            if case .becameActive = event { continue }
            return event
        }
        return nil
    }
}

/// An NDEF delegate in read-only mode (no `didDetect tags`), as most published readers are.
final class NDEFReaderDelegate: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let log = EventLog()
    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { log.record(.becameActive) }
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) { log.record(.invalidated(error)) }
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) { log.record(.ndefs(messages)) }
}

/// An NDEF delegate in read-write mode (implements `didDetect tags`).
final class NDEFWriterDelegate: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let log = EventLog()
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) { log.record(.invalidated(error)) }
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) { log.record(.ndefs(messages)) }
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) { log.record(.ndefTags(tags)) }
}

/// A tag reader delegate.
final class TagReaderDelegate: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    let log = EventLog()
    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) { log.record(.becameActive) }
    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) { log.record(.invalidated(error)) }
    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) { log.record(.tags(tags)) }
}

/// A simulated field injected as the sessions' reader, with a simulated clock.
struct SessionBench {
    let field: SimulatedField
    let clock: SimulatedClock

    /// An app configured as published NFC apps are: a usage description, the TAG format, the
    /// NFC Forum Type 4 AID and two FeliCa system codes.
    static let appConfiguration = NFCAppConfiguration(
        usageDescription: "Reads and writes NFC tags.",
        readerSessionFormats: [.tag],
        iso7816SelectIdentifiers: ["D2760000850101"],
        felicaSystemCodes: ["12FC", "88B4"]
    )

    init(_ tags: [any VirtualTag], configuration: NFCAppConfiguration? = SessionBench.appConfiguration) async {
        clock = SimulatedClock()
        field = SimulatedField(clock: clock)
        for tag in tags { await field.place(tag) }
        NFCSessionEnvironment.shared.reset()
        NFCSessionEnvironment.shared.driver = field
        NFCSessionEnvironment.shared.clock = clock
        NFCSessionEnvironment.shared.appConfiguration = configuration
    }
}

/// Expects `body` to fail with an `NFCReaderError` of this code.
func expectReaderError(
    _ code: NFCReaderError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async {
    do {
        _ = try await body()
        Issue.record("expected NFCReaderError \(code), got success", sourceLocation: sourceLocation)
    } catch let error as NFCReaderError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected NFCReaderError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
