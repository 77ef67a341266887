import Foundation
import NFCBytes
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs a tap's handler with swift-subprocess: the configured argument vector (never a shell, so
/// nothing in a URL is interpreted), the URL as an argument, its standard output and standard
/// error sent to our standard error so standard output stays one JSON event per line, standard
/// input from /dev/null.
///
/// The handler gets a process group of its own (so the time limit and Ctrl-C end its children too)
/// and default signal handling with nothing blocked, whatever the watch had (swift-subprocess resets
/// every signal's disposition and the mask in the child). Every handler runs in its own task: a
/// slow or hung one delays nothing else. One that outlives `timeout` is killed (SIGKILL to its whole
/// process group, through swift-subprocess's teardown on cancellation) and reported as timed out.
final class HandlerRunner: Sendable {
    /// How a handler ended.
    enum Ending: Sendable, Equatable {
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
    /// The handlers running, and whether the watch is ending: a handler whose pid becomes known
    /// after ``terminateAll()`` (spawned just before Ctrl-C) is ended at once, not left orphaned.
    private let running = Guarded<(pids: Set<pid_t>, stopping: Bool)>(([], false))

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The arguments for a URL: `{url}` arguments replaced, or the URL appended.
    static func arguments(_ command: [String], url: String) -> [String] {
        command.contains("{url}") ? command.map { $0 == "{url}" ? url : $0 } : command + [url]
    }

    /// Starts the handler and calls `done` from another task when it has ended.
    func run(_ command: [String], url: String, environment extra: [String: String], done: @escaping @Sendable (Ending, Duration) -> Void) {
        Task.detached { [self] in
            let start = ContinuousClock.now
            let ending = await execute(Self.arguments(command, url: url), environment: extra)
            done(ending, ContinuousClock.now - start)
        }
    }

    /// Runs one handler to its end or its time limit, whichever comes first. `started` is called
    /// with the handler's pid once it runs and ``terminateAll()`` can reach it.
    func execute(
        _ argv: [String], environment extra: [String: String], started: (@Sendable (pid_t) -> Void)? = nil
    ) async -> Ending {
        guard let program = argv.first, !program.isEmpty else { return .notStarted("the handler has no program") }
        return await withTaskGroup(of: Ending?.self) { group in
            group.addTask { await self.spawnAndWait(program, Array(argv.dropFirst()), environment: extra, started: started) }
            group.addTask { [timeout] in
                // nil when the handler ended first and this timer was cancelled.
                (try? await Task.sleep(for: timeout)) == nil ? nil : .timedOut
            }
            let first = await group.next() ?? nil
            // The timer (if the handler ended) or the handler (torn down by cancellation) ends too.
            group.cancelAll()
            guard let first else { return .notStarted("the handler's task ended without a result") }
            if first == .timedOut {
                for await _ in group {}
            }
            return first
        }
    }

    /// Sends SIGTERM to every handler still running (the watch is ending).
    func terminateAll() {
        let pids = running.withLock { state in
            state.stopping = true
            return state.pids
        }
        for pid in pids { kill(-pid, SIGTERM) }
    }

    private func spawnAndWait(
        _ program: String, _ arguments: [String], environment extra: [String: String], started: (@Sendable (pid_t) -> Void)?
    ) async -> Ending {
        var options = PlatformOptions()
        // setpgid(0, 0) in the child: a group of its own, led by the handler.
        options.processGroupID = 0
        // Cancellation (the time limit) kills the handler and everything it started.
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .milliseconds(500))]
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        var updates: [Environment.Key: String?] = [:]
        for (key, value) in extra { updates[Environment.Key(stringLiteral: key)] = value }
        let spawned = Guarded<pid_t?>(nil)
        defer { if let pid = spawned.withLock({ $0 }) { running.withLock { _ = $0.pids.remove(pid) } } }
        if running.withLock({ $0.stopping }) { return .notStarted("the watch is ending") }
        do {
            let result = try await Subprocess.run(
                executable, arguments: Arguments(arguments), environment: .inherit.updating(updates),
                platformOptions: options, input: .none, output: .currentStandardError, error: .currentStandardError
            ) { execution in
                let pid = execution.processIdentifier.value
                spawned.withLock { $0 = pid }
                let stopping = running.withLock { state in
                    state.pids.insert(pid)
                    return state.stopping
                }
                if stopping { kill(-pid, SIGTERM) }
                started?(pid)
            }
            switch result.terminationStatus {
            case .exited(let code): return .exited(code)
            case .signaled(let signal): return .signalled(signal)
            }
        } catch {
            return .notStarted("cannot start \(program): \(Self.reason(error))")
        }
    }

    /// swift-subprocess's reason for a failed start, e.g. "No such file or directory".
    private static func reason(_ error: any Error) -> String {
        if let failure = error as? SubprocessError, let underlying = failure.underlyingError {
            return String(describing: underlying)
        }
        return String(describing: error)
    }
}
