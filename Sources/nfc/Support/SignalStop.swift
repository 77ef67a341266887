import Foundation
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pipe the signal handler writes to (a C handler cannot capture; set before the handler is
/// installed, read-only afterwards).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM run `stop` instead of killing the process, so long-running commands
/// (`nfc emulate`, `nfc watch`) end cleanly.
///
/// A `sigaction` handler writes the signal's number to a pipe (the only async-signal-safe thing
/// it does) and a thread of ours reads it and calls `stop`. This replaced a dispatch signal
/// source, which needs the signal set to `SIG_IGN`: a SIGTERM arriving before libdispatch had
/// registered the source, at a thread not blocking it, was discarded by the kernel, and the
/// process never stopped (2 of 40 early SIGTERMs in a loop; docs/hardening.md).
final class SignalStop: Sendable {
    private static let numbers: [Int32] = [SIGINT, SIGTERM]
    private let writeEnd: Int32
    /// The dispositions replaced (the temporary-file cleanup's), put back by ``cancel()``.
    private let previous: Guarded<[sigaction]>

    init(_ stop: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        let readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        signalPipeWriteEnd = writeEnd
        let reader = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                // 0: cancel() wrote its stop byte (or the pipe closed); otherwise a signal number.
                guard count == 1, byte != 0 else { break }
                stop()
            }
            close(readEnd)
        }
        reader.start()
        var replaced: [sigaction] = []
        for number in Self.numbers {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(number, &action, &old)
            replaced.append(old)
        }
        previous = Guarded(replaced)
        // A parent may have started us with these signals blocked (Foundation's Process does
        // from a dispatch thread): unblock them here, or Ctrl-C and SIGTERM would stay pending.
        var wanted = sigset_t()
        sigemptyset(&wanted)
        for number in Self.numbers { sigaddset(&wanted, number) }
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    /// Restores the dispositions found at start and ends the reading thread.
    func cancel() {
        previous.withLock { actions in
            for (number, action) in zip(Self.numbers, actions) {
                var action = action
                sigaction(number, &action, nil)
            }
        }
        var zero: UInt8 = 0
        _ = write(writeEnd, &zero, 1)
        close(writeEnd)
    }
}
