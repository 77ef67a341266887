import Foundation
import NFCTestSupport
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
        // The test holds the read end of a FIFO, opened without waiting for a writer. The handler
        // opens the write end first thing, hands it to a child that would sleep ten minutes and
        // closes its own copy: the FIFO hangs up only once that child has died too. The wait for
        // the hang-up is poll(2) with a deadline, an event and not a sleep; had the SIGKILL missed
        // the child, the deadline passes and the test fails.
        let fifo = folder.appendingPathComponent("child.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0, "the FIFO opens for reading")
        defer { close(reader) }
        let runner = HandlerRunner(timeout: .seconds(5))
        let script = "exec 3>\(fifo); sleep 600 >&3 & exec 3>&-; wait"
        #expect(await runner.execute(["/bin/sh", "-c", script], environment: [:]) == .timedOut)
        let hungUp = await offCooperativePool { Self.waitForHangUp(reader, milliseconds: 20_000) }
        #expect(hungUp, "the FIFO hung up: the child died with the handler")
    }

    /// Waits until every writer of a FIFO that had one has closed it (Linux reports POLLHUP only
    /// after a writer came and went); false at the deadline.
    private static func waitForHangUp(_ fd: Int32, milliseconds: Int32) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(milliseconds))
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let wait = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            if Int32(descriptor.revents) & Int32(POLLHUP) != 0 { return true }
            // Data (none is written) or a spurious wake: drain and wait again.
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
        }
        return false
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
