import Foundation
import NFCBytes
import NFCSimulator
import NFCTestSupport

extension LoopbackVPCD {
    /// Where the card connects.
    var endpoint: VPCDEndpoint { VPCDEndpoint(host: "127.0.0.1", port: port) }
}

/// Runs `VPCDLink.serve` on a thread of its own and hands back how it ended, waiting on a
/// semaphore the thread signals (not on time).
final class ServingThread: Sendable {
    private let result = Guarded<(VPCDLinkEnding, EmulatedReaderFront)?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(link: VPCDLink, front: EmulatedReaderFront, removeAfter: Int? = nil) {
        let thread = Thread { [self] in
            var front = front
            let ending = link.serve(&front, removeAfter: removeAfter)
            result.withLock { $0 = (ending, front) }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for `serve` to return.
    func wait() -> (ending: VPCDLinkEnding, front: EmulatedReaderFront)? {
        finished.wait()
        return result.withLock { $0 }
    }
}
