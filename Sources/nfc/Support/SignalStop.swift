import Dispatch
import Foundation

/// SIGINT and SIGTERM run `stop` instead of killing the process, so long-running commands
/// (`nfc emulate`, `nfc watch`) end cleanly.
final class SignalStop {
    private let sources: [any DispatchSourceSignal]

    init(_ stop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "nfc.signals")
        // A parent may have started us with these signals blocked (Foundation's Process does
        // from a dispatch thread): unblock them, or Ctrl-C and SIGTERM would never arrive.
        var wanted = sigset_t()
        sigemptyset(&wanted)
        sigaddset(&wanted, SIGINT)
        sigaddset(&wanted, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
