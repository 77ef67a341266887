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
        let pidFile = folder.appendingPathComponent("child.pid").path
        let runner = HandlerRunner(timeout: .milliseconds(700))
        // The shell starts a child in the background, records its pid, and waits for it.
        let ending = await runner.execute(["/bin/sh", "-c", "sleep 60 & echo $! > \(pidFile); wait"], environment: [:])
        #expect(ending == .timedOut)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try #require(pid_t(text))
        // The child was in the handler's process group: SIGKILL reached it too. It is reaped by
        // init once orphaned; until then it is a zombie, which kill(pid, 0) still finds, so look
        // at its state instead.
        var gone = false
        for _ in 0..<100 where !gone {
            gone = Self.isGoneOrZombie(child)
            if !gone { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(gone, "the handler's child \(child) outlived the time limit")
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

    @Test("terminateAll ends handlers still running; run() reports through its callback")
    func terminateAll() async throws {
        let runner = HandlerRunner(timeout: .seconds(60))
        let marker = folder.appendingPathComponent("started").path
        let (endings, continuation) = AsyncStream<HandlerRunner.Ending>.makeStream()
        runner.run(["/bin/sh", "-c", "touch \(marker); exec sleep 60"], url: "tel:+1", environment: [:]) { ending, _ in
            continuation.yield(ending)
            continuation.finish()
        }
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: marker) { try await Task.sleep(for: .milliseconds(20)) }
        // Registered once the process exists: give the runner a moment past the marker.
        try await Task.sleep(for: .milliseconds(100))
        runner.terminateAll()
        var iterator = endings.makeAsyncIterator()
        #expect(await iterator.next() == .signalled(SIGTERM))
    }

    /// True when `pid` no longer exists or is a zombie (Linux: /proc/PID/stat state Z).
    private static func isGoneOrZombie(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
