import Foundation
import NFCBytes
import NFCPCSC
import NFCSimulator
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tests that need a real pcscd with vsmartcard's vpcd can run here, and why not.
///
/// The driver's tests use vpcd's second reader (`Virtual PCD 00 01`, card side on TCP 35964),
/// the session tests the first (`Virtual PCD 00 00`, 35963), so that the two test targets'
/// suites, which may run at the same time, never share a reader. Without pcscd they are skipped with the reason;
/// with `OPENCORENFC_REQUIRE_PCSCD=1` (set by `.ci/run`) they run regardless and fail.
package enum LivePCSC {
    /// One of vpcd's two readers.
    package enum Slot: Sendable {
        /// `Virtual PCD 00 00`, card side on TCP 35963 (the session tests).
        case first
        /// `Virtual PCD 00 01`, card side on TCP 35964 (the driver's tests).
        case second
        /// The PC/SC reader name pcscd gives this slot: `Virtual PCD 00 00` or `Virtual PCD 00 01`.
        package var reader: String { self == .first ? "Virtual PCD 00 00" : "Virtual PCD 00 01" }
        /// The TCP port vpcd listens on for this slot's card: 35963 or 35964.
        package var port: UInt16 { self == .first ? 35963 : 35964 }
    }

    /// Why the live tests cannot run, or `nil` when they can.
    package static let unavailableReason: String? = {
        guard PCSCDriver.isLibraryAvailable else { return "libpcsclite is not installed" }
        do {
            let readers = try PCSCDriver().readers()
            for slot in [Slot.first, .second] where !readers.contains(slot.reader) {
                return "pcscd has no \"\(slot.reader)\" reader (install vsmartcard-vpcd and restart pcscd); it has \(readers)"
            }
            return nil
        } catch {
            return "pcscd is not running (\(error))"
        }
    }()

    /// Whether CI demands these tests.
    package static var required: Bool { ProcessInfo.processInfo.environment["OPENCORENFC_REQUIRE_PCSCD"] == "1" }

    /// Run the live tests: they can, or they must (and will fail saying why).
    package static var shouldRun: Bool { unavailableReason == nil || required }

    /// The skip message.
    package static var skipReason: String {
        "needs pcscd with vsmartcard-vpcd: \(unavailableReason ?? "available") — skipped (.ci/run provides it)"
    }
}

/// A virtual tag served to vpcd from a thread of the test process, as `nfc emulate` does:
/// connects (retrying while vpcd is not there), answers until stopped, reconnects after pcscd
/// restarts. `removeAfter` makes the card leave at that APDU, as a tag pulled out mid-command.
package final class LiveCard: Sendable {
    private let link: VPCDLink
    private let state: Guarded<(front: EmulatedReaderFront, finished: Bool, removed: Bool)>
    private let done = DispatchSemaphore(value: 0)

    /// Starts serving `tag` to vpcd's reader `slot` (the second by default) on a thread of its own; `basicReader` makes
    /// the reader answer `FF C2` with `6A81`, and with `removeAfter` the card answers that many APDUs, then leaves on
    /// the next one without answering it; `profile` makes the reader answer as that model's firmware.
    package init(
        _ tag: any VirtualTag, slot: LivePCSC.Slot = .second, basicReader: Bool = false, profile: EmulatedReaderProfile = .generic,
        removeAfter: Int? = nil
    ) {
        link = VPCDLink(endpoint: VPCDEndpoint(port: slot.port))
        let initial = EmulatedReaderFront(tag: tag, basicReader: basicReader, profile: profile)
        state = Guarded((initial, false, false))
        let thread = Thread { [self] in serve(removeAfter: removeAfter) }
        thread.start()
    }

    private func serve(removeAfter: Int?) {
        var front = state.withLock { $0.front }
        while !link.isStopRequested {
            do {
                try link.connect()
            } catch {
                usleep(20_000)  // vpcd not listening yet (pcscd starting): try again
                continue
            }
            let ending = link.serve(&front, removeAfter: removeAfter) { current in
                self.state.withLock { $0.front = current }
            }
            if case .cardRemoved = ending {
                state.withLock { $0.removed = true }
                break
            }
        }
        let final = front
        state.withLock {
            $0.front = final
            $0.finished = true
        }
        done.signal()
    }

    /// The tag as the card holds it now.
    package var tag: any VirtualTag { state.withLock { $0.front.tag } }
    /// Whether the card left by `removeAfter`.
    package var wasRemoved: Bool { state.withLock { $0.removed } }

    /// Takes the card away and waits for its thread to end.
    package func stop() {
        link.stop()
        if !state.withLock({ $0.finished }) { done.wait() }
    }
}

extension LivePCSC {
    /// Runs a command (no shell) and returns its exit status; the child starts with default
    /// signal dispositions and an empty signal mask, so a daemon it starts behaves as from a shell.
    package static func run(_ path: String, _ arguments: [String]) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, nil, &attributes, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }
}
