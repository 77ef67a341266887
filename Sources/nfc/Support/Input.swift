import Foundation
import NFCBytes
import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the bytes a command works on: a hex argument, a file, or standard input.
enum Input {
    /// Reads a whole file as raw bytes.
    /// Regular files only: a FIFO, device or directory is refused at once instead of blocking
    /// (``RegularFile``); the error's code says whether the file is missing or not readable.
    static func readFile(_ path: String, limit: Int = 64 << 20) throws -> [UInt8] {
        do {
            return try RegularFile.read(path, limit: limit)
        } catch {
            throw CLIError(imageError: error, path: path, doing: "cannot read")
        }
    }

    /// Reads standard input to its end.
    static func readStandardInput() -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Bytes from hex text, with a clear error.
    static func hex(_ text: String, what: String = "input") throws -> [UInt8] {
        do {
            return try Hex.decode(text)
        } catch {
            throw CLIError(.badInput, "\(what) is not hex: \(error)")
        }
    }

    /// Whether these bytes are hex text (digits, white space and separators only).
    static func looksLikeHex(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
                    || b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x3A || b == 0x2D || b == 0x78
            }
    }

    /// Standard input as bytes: hex text when it is only hex digits and separators, raw bytes otherwise.
    static func standardInputBytes() throws -> [UInt8] {
        let raw = readStandardInput()
        if looksLikeHex(raw) { return try hex(String(decoding: raw, as: UTF8.self), what: "standard input") }
        return raw
    }
}

/// Writing to standard output and standard error.
enum Output {
    /// Writes a line to standard output; control characters other than the CLI's own line
    /// feeds and tabs are escaped (``TerminalText``), whatever the caller forgot.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalText.escapeKeepingLayout(text) + "\n").utf8))
    }

    /// Writes a line to standard error, escaped as ``line(_:)`` is.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escapeKeepingLayout(text) + "\n").utf8))
    }

    /// Writes an output file (`-o/--output FILE`) by the one rule every command follows: an
    /// existing regular file is refused unless `force` (`--force`) is given, and then replaced
    /// atomically keeping its mode and owner; a new file is created atomically and create-only,
    /// so a file that appears meanwhile is not overwritten either. A device or FIFO named on
    /// purpose (`-o /dev/stdout`) is written to directly.
    static func writeFile(_ path: String, _ bytes: [UInt8], force: Bool) throws {
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR { throw directoryRefusal(path) }
        if exists, status.st_mode & S_IFMT != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CLIError(.permission, "cannot write \(path)", file: path) }
            do {
                try handle.write(contentsOf: Data(bytes))
                try handle.close()
            } catch {
                throw CLIError(.failure, "cannot write \(path): \(error.localizedDescription)", file: path)
            }
            return
        }
        if exists, !force { throw refusal(path) }
        do {
            if exists {
                try AtomicFile.write(bytes, to: path, mode: .exactly(status.st_mode & 0o7777), owner: (status.st_uid, status.st_gid))
            } else {
                try AtomicFile.write(bytes, to: path, replace: false)
            }
        } catch {
            guard error.code == .exists else { throw CLIError(imageError: error, path: path, doing: "cannot write") }
            if !force { throw refusal(path) }
            throw CLIError(
                .badInput, "\(path): a file appeared there while writing (or a dangling symbolic link is in the way); nothing was replaced",
                file: path)
        }
    }

    /// Refuses early, before any tag or card is touched, an output path that is a directory, or
    /// a file that exists while `force` is not given (``writeFile(_:_:force:)`` checks again when
    /// it writes).
    static func checkWritable(_ path: String?, force: Bool) throws {
        guard let path else { return }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR { throw directoryRefusal(path) }
        if status.st_mode & S_IFMT == S_IFREG, !force { throw refusal(path) }
    }

    private static func refusal(_ path: String) -> CLIError {
        CLIError(.badInput, "\(path) exists; pass --force to replace it", file: path)
    }

    private static func directoryRefusal(_ path: String) -> CLIError {
        CLIError(.badInput, "\(path) is a directory: name the file to write", file: path)
    }

    /// A line on standard error for an option spelled the old way: it still works for one
    /// release, and says what replaces it.
    static func deprecated(_ old: String, use new: String) {
        error("nfc: \(old) is deprecated and goes in the next release; use \(new)")
    }
}
