import ArgumentParser
import Foundation
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCPCSC
import NFCPN532
import NFCReaders
import NFCSimulator
import NFCTags
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `nfc write --loop`: writes tag after tag as they are presented, never the same UID twice, as
/// event tickets and badges are encoded — from a template whose `{n}` counts the tags, or from a
/// file with one message per tag (JSON lines, or CSV whose header names a record per column).
///
/// Each tag written is a line (UID, bytes, the tag's number) on standard output, or a JSON object
/// per line with `--json`; a terminal also gets a progress line on standard error. `--log FILE`
/// appends one JSON line per tag (time, UID, number, message) for the user's records. It ends
/// after `--count` tags, at the end of the `--from` file, or on Ctrl-C, with a summary.
struct WriteLoop {
    /// Where each tag's message comes from.
    enum Source {
        /// Record specs whose URI and text values may hold `{n}`, the tag's number.
        case template([RecordArguments.Spec])
        /// The same encoded message for every tag.
        case fixed([UInt8])
        /// One encoded message per tag, in order.
        case lines([[UInt8]])
    }

    let source: Source
    let count: Int?
    let start: Int
    let log: String?
    let json: Bool

    /// The message for tag number `n` (counting from `start`), or nil when the source is used up.
    func message(_ n: Int, index: Int) throws -> [UInt8]? {
        switch source {
        case .fixed(let bytes):
            return bytes
        case .lines(let messages):
            return index < messages.count ? messages[index] : nil
        case .template(let specs):
            let number = String(n)
            let filled = specs.map { spec -> RecordArguments.Spec in
                switch spec {
                case .uri(let uri): .uri(uri.replacingOccurrences(of: "{n}", with: number))
                case .text(let text, let language): .text(text.replacingOccurrences(of: "{n}", with: number), language: language)
                default: spec
                }
            }
            let bytes: [UInt8]
            do {
                bytes = try NDEFMessage(records: try RecordArguments.records(from: filled)).encoded()
            } catch let error as NDEFError {
                throw CLIError(.badInput, "tag \(n): cannot encode: \(error)")
            }
            try NDEFVerification.verify(bytes)
            return bytes
        }
    }

    /// The tag password to present before each write, if any.
    struct Password: Sendable {
        let bytes: [UInt8]?
        let pack: [UInt8]?
    }

    /// The tags written, the repeats skipped and the failures of one run.
    struct Tally {
        var written = 0
        var repeats = 0
        var failed = 0
    }

    /// Runs until `count` tags are written, the source is used up, or a signal.
    func run(_ options: ReaderOptions, password secret: TagPasswordOptions) async throws {
        let name = try options.readerName()
        let profile = try options.profile(for: name)
        _ = try message(start, index: 0)  // a template that cannot encode fails before any tag
        let password = Password(bytes: try secret.bytes(), pack: try secret.expectedPACK())
        let stopped = AsyncStream<Void>.makeStream()
        let signals = SignalStop { stopped.continuation.finish() }
        defer { signals.cancel() }
        let tally: Tally
        switch name {
        case .simulator(let given):
            let folder = ImageFolderField(path: given ?? SimulatorHome.defaultImagePath)
            tally = try await withThrowingTaskGroup(of: Tally?.self) { group in
                group.addTask {
                    await folder.run { Output.error("\(folder.path): \($0)") }
                    return nil
                }
                group.addTask {
                    try await self.loop(folder.field, meter: AirTimeMeter(), password: password, saving: folder, stop: stopped.stream)
                }
                let result = try await group.next() ?? nil
                group.cancelAll()
                return result ?? Tally()
            }
        case .pcsc(let filter):
            tally = try await loop(
                PCSCDriver(readerFilter: filter, profile: profile), meter: AirTimeMeter(), password: password, saving: nil,
                stop: stopped.stream)
        case .pn532(let path, let baudRate):
            tally = try await loop(
                PN532Driver(path: path, baudRate: baudRate ?? 115_200), meter: AirTimeMeter(), password: password, saving: nil,
                stop: stopped.stream)
        case .pn532Target, .nfcpyUDP:
            throw CLIError(.usage, "write --loop takes sim, sim:FILE or sim:FOLDER (a file appearing is a tap), pcsc[:NAME] or pn532:PATH")
        }
        let summary =
            "wrote \(tally.written) \(tally.written == 1 ? "tag" : "tags") (\(tally.repeats) repeated taps skipped, \(tally.failed) failed)"
        if json {
            Output.line(
                JSONValue.object([
                    (
                        "summary",
                        .object([
                            ("written", .int(Int64(tally.written))), ("repeats", .int(Int64(tally.repeats))),
                            ("failed", .int(Int64(tally.failed))),
                        ])
                    )
                ]).serialized())
        } else {
            Output.error(summary)
        }
        if tally.failed > 0 && tally.written == 0 { throw ExitCode(CLIError.Code.failure.exitStatus) }
    }

    /// Writes each arriving tag once, until done or `stop` ends.
    private func loop(
        _ driver: any ReaderDriver, meter: AirTimeMeter, password: Password, saving folder: ImageFolderField?,
        stop: AsyncStream<Void>
    ) async throws -> Tally {
        let events = await driver.events(matching: .all)
        return try await withThrowingTaskGroup(of: Tally?.self) { group in
            group.addTask {
                for await _ in stop {}
                return nil
            }
            group.addTask {
                var tally = Tally()
                var written: [[UInt8]: Int] = [:]
                // --count, or the lines of --from, whichever ends first.
                var limit = count
                if case .lines(let messages) = source { limit = min(count ?? messages.count, messages.count) }
                // UIDs whose next arrival is our own save of their image (sim:FOLDER), not a tap.
                var ownSaves: Set<[UInt8]> = []
                let terminal = isatty(STDERR_FILENO) == 1
                if terminal { Output.error("present the tags one after another (Ctrl-C to stop)") }
                for await event in events {
                    guard case .targetArrived(let target) = event else { continue }
                    let uid = Hex.encode(target.identifier)
                    if let number = written[target.identifier] {
                        if ownSaves.remove(target.identifier) != nil { continue }
                        tally.repeats += 1
                        if !json { Output.error("\(uid): already written (tag \(number)); present the next one") }
                        continue
                    }
                    let index = tally.written
                    let n = start + index
                    guard let message = try self.message(n, index: index) else { break }
                    do {
                        let connection = try await driver.connect(to: target, meter: meter)
                        do {
                            try await TagPasswordOptions.authenticate(password: password.bytes, pack: password.pack, on: connection)
                            try await TagEngines.engine(for: TagFamily(connection.target)).writeNDEF(message, on: connection)
                        } catch {
                            await connection.disconnect()
                            throw error
                        }
                        await connection.disconnect()
                        if let folder {
                            try await folder.save(target.handle)
                            ownSaves.insert(target.identifier)
                        }
                    } catch {
                        tally.failed += 1
                        Output.error("\(uid): not written: \(Self.reason(error)); present it again")
                        continue
                    }
                    written[target.identifier] = n
                    tally.written += 1
                    try appendLog(uid: uid, n: n, message: message)
                    if json {
                        Output.line(
                            JSONValue.object([("uid", .string(uid)), ("n", .int(Int64(n))), ("bytes", .int(Int64(message.count)))])
                                .serialized())
                    } else {
                        Output.line("\(uid)  tag \(n)  wrote \(message.count) bytes")
                    }
                    if let limit, tally.written >= limit { break }
                    if terminal { Output.error("\(tally.written) written\(limit.map { " of \($0)" } ?? ""); next tag…") }
                }
                return tally
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            // Stopped by a signal: the writer's tally so far.
            return try await group.next().flatMap { $0 } ?? Tally()
        }
    }

    /// One JSON line per tag written, appended to `--log` (created private to its owner).
    private func appendLog(uid: String, n: Int, message: [UInt8]) throws {
        guard let log else { return }
        let line =
            JSONValue.object([
                ("time", .string(ISO8601DateFormatter().string(from: Date()))), ("uid", .string(uid)), ("n", .int(Int64(n))),
                ("message", .string(Hex.encode(message))),
            ]).serialized() + "\n"
        let fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError(.permission, "cannot append to \(log): \(String(cString: strerror(errno)))", file: log) }
        defer { close(fd) }
        let bytes = Array(line.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw CLIError(.failure, "cannot append to \(log): \(String(cString: strerror(errno)))", file: log)
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? TagEngineError { return EngineErrorText.line(error) }
        if let error = error as? CLIError { return error.description }
        return "\(error)"
    }
}

/// `--from FILE` for `write --loop`: one message per tag.
enum WriteLoopFile {
    /// JSON lines (each a message in the JSON form) when the first non-blank character is `{`;
    /// otherwise CSV (RFC 4180 quoting) whose header names a record per column (`uri`, `text`,
    /// `text:LANG`), each row's non-empty cells becoming its records in column order.
    static func messages(_ path: String) throws -> [[UInt8]] {
        let content = path == "-" ? Input.readStandardInput() : try Input.readFile(path, limit: 64 << 20)
        let text = String(decoding: content, as: UTF8.self)
        let lines = text.unicodeScalars.split(separator: "\n").map {
            String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0[...]))
        }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = lines.first else { throw CLIError(.badInput, "\(path) holds no message") }
        if first.trimmingCharacters(in: .whitespaces).hasPrefix("{") {
            return try lines.enumerated().map { index, line in
                let message = try NDEFJSONFile.message(Array(line.utf8), source: "\(path) line \(index + 1)")
                return try encode(message, place: "\(path) line \(index + 1)")
            }
        }
        let header = try csvFields(first, line: 1, path: path)
        let kinds = try header.map { column -> (String, String?) in
            let name = column.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "uri" { return ("uri", nil) }
            if name == "text" { return ("text", "en") }
            if name.hasPrefix("text:") { return ("text", String(name.dropFirst(5))) }
            throw CLIError(.badInput, "\(path) line 1: column \"\(column)\": name each column uri, text or text:LANG")
        }
        return try lines.dropFirst().enumerated().map { offset, line in
            let number = offset + 2
            let cells = try csvFields(line, line: number, path: path)
            guard cells.count == kinds.count else {
                throw CLIError(.badInput, "\(path) line \(number): \(cells.count) cells, the header names \(kinds.count)")
            }
            var specs: [RecordArguments.Spec] = []
            for ((kind, language), cell) in zip(kinds, cells) where !cell.isEmpty {
                specs.append(kind == "uri" ? .uri(cell) : .text(cell, language: language ?? "en"))
            }
            guard !specs.isEmpty else { throw CLIError(.badInput, "\(path) line \(number): every cell is empty") }
            return try encode(NDEFMessage(records: try RecordArguments.records(from: specs)), place: "\(path) line \(number)")
        }
    }

    private static func encode(_ message: NDEFMessage, place: String) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            throw CLIError(.badInput, "\(place): cannot encode: \(error)")
        }
        try NDEFVerification.verify(bytes)
        return bytes
    }

    /// The fields of one CSV line: commas separate, a field in double quotes may hold commas and
    /// `""` for a quote (RFC 4180 §2; a field spanning lines is not supported).
    static func csvFields(_ line: String, line number: Int, path: String) throws -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if quoted {
                if character == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex, line[next] == "\"" {
                        field.append("\"")
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"", field.isEmpty {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
            index = line.index(after: index)
        }
        guard !quoted else { throw CLIError(.badInput, "\(path) line \(number): a quoted field does not end") }
        fields.append(field)
        return fields
    }
}
