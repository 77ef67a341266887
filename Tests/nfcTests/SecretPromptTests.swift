import Foundation
import NFCPN532
import NFCTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The no-echo prompt for a secret (ykman's way): on a terminal, `nfc piv change-pin` asks with
/// echo off; Ctrl-C at the prompt ends the command and the terminal's echo comes back.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SecretPromptTests {
    /// A pseudo-terminal (NFCPN532's, which knows how to open one on Linux and macOS) and its
    /// terminal side, the child's standard input.
    private func pseudoTerminal(_ directory: URL) throws -> (PseudoTerminal, terminal: Int32) {
        let pty = try PseudoTerminal(linkingAt: directory.appendingPathComponent("tty").path)
        let terminal = open(pty.device, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw POSIXError(.ENODEV) }
        // NFCPN532 makes its terminals raw; a user's terminal echoes and reads lines.
        var settings = termios()
        tcgetattr(terminal, &settings)
        settings.c_lflag |= tcflag_t(ECHO | ICANON)
        tcsetattr(terminal, TCSANOW, &settings)
        return (pty, terminal)
    }

    private func echoIsOn(_ terminal: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    @Test func ctrlCAtThePromptGivesTheEchoBack() async throws {
        let executable = try #require(NFCTool.executable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.json").path
        #expect(try await NFCTool.run(["tag", "new", "security-key", "-o", key]).status == 0)

        let (pty, terminal) = try pseudoTerminal(directory)
        defer {
            close(terminal)
            pty.close()
        }
        #expect(echoIsOn(terminal), "a new terminal echoes")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["piv", "change-pin", "--reader", "sim:" + key]
        process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorFD = errors.fileHandleForReading.fileDescriptor

        // Wait for the prompt (with echo off by then), on a thread of its own with a deadline.
        let prompted = await offCooperativePool { () -> Bool in
            var seen: [UInt8] = []
            let deadline = Date().addingTimeInterval(20)
            var buffer = [UInt8](repeating: 0, count: 256)
            while Date() < deadline {
                var poller = pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 200) > 0 else { continue }
                let count = read(errorFD, &buffer, buffer.count)
                if count <= 0 { return false }
                seen += buffer[0..<count]
                if String(decoding: seen, as: UTF8.self).contains("PIN: ") { return true }
            }
            return false
        }
        #expect(prompted, "the command asks for the PIN on a terminal")
        #expect(!echoIsOn(terminal), "echo is off at the prompt")

        kill(process.processIdentifier, SIGINT)
        // Waits on the process with a deadline (a condition, not a sleep); one still running is killed.
        let (ended, reason, status) = await offCooperativePool { () -> (Bool, Process.TerminationReason, Int32) in
            let deadline = Date().addingTimeInterval(20)
            let nap = NSCondition()
            nap.lock()
            while process.isRunning && Date() < deadline { _ = nap.wait(until: Date().addingTimeInterval(0.02)) }
            nap.unlock()
            let ended = !process.isRunning
            if !ended { process.terminate() }
            process.waitUntilExit()
            return (ended, process.terminationReason, process.terminationStatus)
        }
        #expect(ended, "Ctrl-C ends the command")
        #expect(reason == .uncaughtSignal && status == SIGINT, "it dies of the signal")
        #expect(echoIsOn(terminal), "the echo is back after Ctrl-C at the prompt")
    }
}
