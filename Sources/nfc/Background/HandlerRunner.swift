import Foundation
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a tap's handler: the configured argument vector, started with `posix_spawn` (never a
/// shell, so nothing in a URL is interpreted), the URL as an argument, its output sent to our
/// standard error so standard output stays one JSON event per line.
///
/// Every handler runs on its own thread: a slow or hung one delays nothing else. One that
/// outlives `timeout` is killed (SIGKILL, with its whole process group) and reported as timed out.
final class HandlerRunner: Sendable {
    /// How a handler ended.
    enum Ending: Sendable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case notStarted(String)

        var succeeded: Bool {
            if case .exited(0) = self { return true }
            return false
        }
    }

    let timeout: Duration
    private let running = Guarded<Set<pid_t>>([])

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The arguments for a URL: `{url}` arguments replaced, or the URL appended.
    static func arguments(_ command: [String], url: String) -> [String] {
        command.contains("{url}") ? command.map { $0 == "{url}" ? url : $0 } : command + [url]
    }

    /// Starts the handler and calls `done` from another thread when it has ended.
    func run(_ command: [String], url: String, environment extra: [String: String], done: @escaping @Sendable (Ending, Duration) -> Void) {
        let argv = Self.arguments(command, url: url)
        let start = ContinuousClock.now
        let pid: pid_t
        switch spawn(argv, environment: extra) {
        case .failure(let failure):
            done(.notStarted(failure.reason), .zero)
            return
        case .success(let started):
            pid = started
        }
        running.withLock { _ = $0.insert(pid) }
        let life = HandlerLife()
        let limit = timeout.components
        let deadline = DispatchTime.now() + .seconds(Int(limit.seconds)) + .nanoseconds(Int(limit.attoseconds / 1_000_000_000))
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            // Killed only while not yet reaped, so a reused pid is never hit.
            if life.expire() { kill(-pid, SIGKILL) }
        }
        let thread = Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let timedOut = life.finish()
            running.withLock { _ = $0.remove(pid) }
            let elapsed = ContinuousClock.now - start
            if timedOut {
                done(.timedOut, elapsed)
            } else if status & 0x7F == 0 {
                done(.exited((status >> 8) & 0xFF), elapsed)
            } else {
                done(.signalled(status & 0x7F), elapsed)
            }
        }
        thread.start()
    }

    /// Sends SIGTERM to every handler still running (the watch is ending).
    func terminateAll() {
        for pid in running.withLock({ $0 }) { kill(-pid, SIGTERM) }
    }

    struct SpawnFailure: Error {
        let reason: String
    }

    private func spawn(_ argv: [String], environment extra: [String: String]) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The handler starts with default signal handling and nothing blocked, whatever we had.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A process group of its own: the time limit and Ctrl-C end the handler's children too.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard status == 0 else { return .failure(SpawnFailure(reason: "cannot start \(argv[0]): \(String(cString: strerror(status)))")) }
        return .success(pid)
    }
}

/// A handler's race between ending and its time limit: whichever comes first wins.
private final class HandlerLife: Sendable {
    private let state = Guarded<(finished: Bool, expired: Bool)>((false, false))

    /// The time limit passed: true when the handler is still running (kill it).
    func expire() -> Bool {
        state.withLock { value in
            guard !value.finished else { return false }
            value.expired = true
            return true
        }
    }

    /// The handler was reaped: true when it had been killed for time.
    func finish() -> Bool {
        state.withLock { value in
            value.finished = true
            return value.expired
        }
    }
}
