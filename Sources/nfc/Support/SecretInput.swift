import Foundation
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a secret (a PIN, a PUK, a new PIN) comes from, so that none has to be on the command
/// line, where other users' `ps` and the shell's history see it:
/// - the option's value, when given (`--pin 123456`);
/// - `-`: the next line of standard input (several secrets given as `-` are read in the order
///   the command asks for them, one line each);
/// - nothing, on a terminal: a prompt on standard error with echo off (ykman's way).
enum SecretInput {
    /// Standard input's lines, read once and handed out in order (`-` may be given for several
    /// secrets).
    private static let pendingLines = Guarded<[String]?>(nil)

    /// The secret for `option` (`--pin`), given as `value`; `prompt` names it at the prompt.
    /// - Throws: ``CLIError`` `.usage` when it is missing and standard input is not a terminal,
    ///   or `-` finds no line left.
    static func read(_ value: String?, option: String, prompt: String) throws -> String {
        if let value, value != "-" { return value }
        if value == "-" {
            guard let line = nextStandardInputLine() else {
                throw CLIError(.usage, "\(option) -: standard input has no line left for it")
            }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(.usage, "give \(option) (or \(option) - to read it from standard input)")
        }
        return promptWithoutEcho(prompt + ": ")
    }

    /// Like ``read(_:option:prompt:)``, for an optional secret: nil when not given.
    static func readIfGiven(_ value: String?, option: String, prompt: String) throws -> String? {
        guard let value else { return nil }
        return try read(value, option: option, prompt: prompt)
    }

    private static func nextStandardInputLine() -> String? {
        pendingLines.withLock { pending in
            if pending == nil {
                let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    String($0.hasSuffix("\r") ? $0.dropLast() : $0)
                }
                if lines.last == "" { lines.removeLast() }  // the newline that ends the last line
                pending = lines
            }
            guard var lines = pending, !lines.isEmpty else { return nil }
            let first = lines.removeFirst()
            pending = lines
            return first
        }
    }

    /// Reads a line from the terminal with echo off, restoring the terminal afterwards — also when
    /// Ctrl-C or another ending signal comes at the prompt (``EchoRestore``).
    private static func promptWithoutEcho(_ prompt: String) -> String {
        // Echo goes off before the prompt shows, so nothing typed at once is echoed.
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            EchoRestore.arm(saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        let line = readLine(strippingNewline: true) ?? ""
        if haveTerminal {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            EchoRestore.disarm()
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return line
    }
}

/// Puts the terminal's echo back when a signal ends the process at a no-echo prompt: without it,
/// Ctrl-C at "PIN:" leaves the user's shell typing blind.
///
/// While armed, SIGINT, SIGTERM, SIGHUP and SIGQUIT run a handler that restores the saved
/// terminal settings (`tcsetattr` is async-signal-safe, POSIX.1-2017 §2.4.3), puts back the
/// disposition it replaced (the temporary-file cleanup's, which lets the signal end the process)
/// and raises the signal again; it is delivered when the handler returns.
enum EchoRestore {
    /// The signals, in the order of ``previous`` (the handler's switch follows it).
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = .allocate(capacity: 1)
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = .allocate(capacity: 4)

    /// Saves `settings` and installs the handler (a signal the process ignores stays ignored).
    static func arm(_ settings: termios) {
        saved.initialize(to: settings)
        for (index, number) in signals.enumerated() {
            sigaction(number, nil, previous + index)
            if SignalDisposition.isIgnored(previous + index) { continue }
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = echoRestoreSignalHandler
            #else
            action.__sigaction_u.__sa_handler = echoRestoreSignalHandler
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Puts the replaced dispositions back.
    static func disarm() {
        for (index, number) in signals.enumerated() { sigaction(number, previous + index, nil) }
    }
}

/// Whether a saved disposition is `SIG_IGN`.
enum SignalDisposition {
    static func isIgnored(_ action: UnsafePointer<sigaction>) -> Bool {
        #if canImport(Glibc)
        unsafeBitCast(action.pointee.__sigaction_handler.sa_handler, to: Int.self) == 1
        #else
        unsafeBitCast(action.pointee.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
    }
}

/// The C handler of ``EchoRestore``: only async-signal-safe calls.
private func echoRestoreSignalHandler(_ number: Int32) {
    tcsetattr(STDIN_FILENO, TCSANOW, EchoRestore.saved)
    var newline: UInt8 = 0x0A
    _ = write(STDERR_FILENO, &newline, 1)
    let index: Int
    switch number {
    case SIGINT: index = 0
    case SIGTERM: index = 1
    case SIGHUP: index = 2
    default: index = 3
    }
    sigaction(number, EchoRestore.previous + index, nil)
    raise(number)
}
