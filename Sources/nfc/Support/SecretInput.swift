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

    /// Reads a line from the terminal with echo off, restoring the terminal afterwards.
    private static func promptWithoutEcho(_ prompt: String) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        let line = readLine(strippingNewline: true) ?? ""
        if haveTerminal {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return line
    }
}
