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
        // The handler's child holds the only write end of a FIFO: the test's read of it ends
        // (EOF) when that child dies. Had the SIGKILL missed the child, it would hold the FIFO for
        // ten minutes and the watchdog would name this test.
        let fifo = folder.appendingPathComponent("child.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader is waiting before the handler starts, so the child's open of the FIFO (at
        // its start, well inside the time limit) returns at once.
        let reading = Task { await Self.readToEnd(fifo) }
        let runner = HandlerRunner(timeout: .seconds(2))
        let ending = await runner.execute(["/bin/sh", "-c", "sleep 600 > \(fifo) & wait"], environment: [:])
        #expect(ending == .timedOut)
        // On a loaded machine the handler can be killed before its child opened the FIFO, and the
        // read would then wait for a writer forever. A writer of our own, opened once the reader
        // is there and closed at once, lets the read end — unless the child still holds the FIFO.
        await Self.openAndCloseWriter(fifo)
        #expect(await reading.value == 0, "EOF: the child died with the handler")
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

    /// Opens the FIFO at `path` for writing (waiting for its reader) and closes it, on a thread of its own.
    private static func openAndCloseWriter(_ path: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                let fd = open(path, O_WRONLY)
                if fd >= 0 { close(fd) }
                continuation.resume()
            }.start()
        }
    }

    /// Reads the FIFO at `path` until every writer has closed it (on a thread of its own: the
    /// open and the reads block); the number of bytes read.
    private static func readToEnd(_ path: String) async -> Int {
        await withCheckedContinuation { continuation in
            Thread {
                let fd = open(path, O_RDONLY)
                var total = 0
                if fd >= 0 {
                    var buffer = [UInt8](repeating: 0, count: 64)
                    while true {
                        let count = read(fd, &buffer, buffer.count)
                        if count <= 0 { break }
                        total += count
                    }
                    close(fd)
                }
                continuation.resume(returning: total)
            }.start()
        }
    }
}
