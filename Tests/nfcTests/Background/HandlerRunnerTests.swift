import Foundation
import Testing

@testable import nfc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The watch's handler runner (swift-subprocess underneath), in process: how each way a handler
/// can end is reported, that the time limit ends the handler's children too, and that a URL is an
/// argument, never shell text.
@Suite("HandlerRunner")
struct HandlerRunnerTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("handler-runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test("Exit codes and signals are reported as such")
    func endings() async {
        let runner = HandlerRunner(timeout: .seconds(30))
        #expect(await runner.execute(["/bin/sh", "-c", "exit 0"], environment: [:]) == .exited(0))
        #expect(await runner.execute(["/bin/sh", "-c", "exit 3"], environment: [:]) == .exited(3))
        #expect(await runner.execute(["/bin/sh", "-c", "kill -TERM $$"], environment: [:]) == .signalled(SIGTERM))
        #expect(await runner.execute(["sh", "-c", "exit 7"], environment: [:]) == .exited(7), "a bare name is looked up in PATH")
    }

    @Test("A program that does not exist is 'not started', with the reason")
    func missingProgram() async {
        let runner = HandlerRunner(timeout: .seconds(30))
        let ending = await runner.execute(["/nonexistent/handler", "x"], environment: [:])
        guard case .notStarted(let reason) = ending else {
            Issue.record("expected notStarted, got \(ending)")
            return
        }
        #expect(reason.hasPrefix("cannot start /nonexistent/handler"), "\(reason)")
        #expect(await runner.execute([], environment: [:]) == .notStarted("the handler has no program"))
    }

    @Test("The time limit kills the handler and every process it started")
    func timeLimitKillsTheGroup() async throws {
        // The handler starts a child that would sleep ten minutes and writes its pid; once the
        // time limit has ended the handler, that child must be gone too. (The time limit is long
        // enough for a loaded machine to reach the echo; the wait for the child's end has a
        // deadline, and a zombie left to a PID 1 that does not reap counts as ended.)
        let pidFile = folder.appendingPathComponent("child.pid").path
        let runner = HandlerRunner(timeout: .seconds(5))
        let ending = await runner.execute(["/bin/sh", "-c", "sleep 600 & echo $! > \(pidFile); wait"], environment: [:])
        #expect(ending == .timedOut)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(text), "the handler wrote its child's pid: \(text)")
        let deadline = ContinuousClock.now + .seconds(20)
        while Self.isRunning(pid) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!Self.isRunning(pid), "the child \(pid) died with the handler")
    }

    /// Whether a process exists and is not a zombie (/proc/PID/stat's state; `kill(pid, 0)` elsewhere).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    @Test("The URL is one argument, never shell text; extra environment variables are set")
    func argumentsAndEnvironment() async throws {
        let out = folder.appendingPathComponent("args").path
        let url = "https://example.org/$(touch \(folder.path)/pwned);x"
        let runner = HandlerRunner(timeout: .seconds(30))
        let argv = HandlerRunner.arguments(["/bin/sh", "-c", "printf '%s|%s' \"$1\" \"$NFC_URL\" > \(out)", "handler", "{url}"], url: url)
        #expect(await runner.execute(argv, environment: ["NFC_URL": "from-env"]) == .exited(0))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == url + "|from-env")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/pwned"))
        #expect(HandlerRunner.arguments(["/usr/bin/open"], url: url) == ["/usr/bin/open", url], "no {url}: appended")
    }

    @Test("terminateAll ends handlers still running")
    func terminateAll() async throws {
        let runner = HandlerRunner(timeout: .seconds(60))
        let (started, startedContinuation) = AsyncStream<pid_t>.makeStream()
        async let ending = runner.execute(["/bin/sh", "-c", "exec sleep 60"], environment: [:]) { pid in
            startedContinuation.yield(pid)
        }
        var pids = started.makeAsyncIterator()
        #expect(await pids.next() != nil, "the runner reports the handler once it can reach it")
        runner.terminateAll()
        #expect(await ending == .signalled(SIGTERM))
    }

    @Test("run() reports the ending through its callback")
    func callback() async {
        let runner = HandlerRunner(timeout: .seconds(60))
        let (endings, continuation) = AsyncStream<HandlerRunner.Ending>.makeStream()
        runner.run(["/bin/sh", "-c", "exit 4"], url: "tel:+1", environment: [:]) { ending, _ in
            continuation.yield(ending)
            continuation.finish()
        }
        var iterator = endings.makeAsyncIterator()
        #expect(await iterator.next() == .exited(4))
    }

}
