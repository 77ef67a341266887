import Dispatch
import NFCTransport

/// Runs PC/SC calls — which block their thread until the reader answers — on a serial dispatch
/// queue of their own, never on Swift's cooperative pool.
///
/// `SCardTransmit` waits for the card (milliseconds usually; seconds for a card asking for more
/// time, ISO/IEC 14443-4 §7.3 S(WTX)), and `SCardConnect` for the reader to power it. The
/// cooperative pool has one thread per core, so two such waits on a 2-core machine would stall
/// every other task in the process. A serial queue also keeps one card's calls in order. The hop
/// costs tens of microseconds against milliseconds of reader round trip (BENCHMARKS.md, PC/SC).
struct BlockingCalls: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` on the queue and resumes the caller with its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(TransportError) -> T) async throws(TransportError) -> T {
        let result: Result<T, TransportError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(TransportError) -> T in try body() })
            }
        }
        return try result.get()
    }

    /// Runs `body`, which cannot fail, on the queue.
    func run(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                body()
                continuation.resume()
            }
        }
    }
}
