import ArgumentParser
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTags

/// `nfc write [--reader R] (records… | --message FILE) [--json] [--stats]`
struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write an NDEF message to the tag.",
        discussion: """
            Records are given as for nfc ndef encode (--uri, --text [--lang], --mime TYPE or \
            --external DOMAIN:TYPE each with --payload-file F or --payload-hex H after it), or the whole \
            message with --message FILE (- for standard input): binary, hex or the JSON form of \
            docs/ndef-json.md, told apart by the content. --json prints what was written.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @OptionGroup var records: RecordOptions
    @Option(name: .long, help: "The whole message from this file (- for standard input): binary, hex or JSON.")
    var message: String?
    @Flag(name: .long, help: "Print what was written as JSON (docs/ndef-json.md, plus stats).")
    var json = false
    @Flag(
        name: .long,
        help: "Write tag after tag as they are presented, never the same UID twice, until --count, the end of --from, or Ctrl-C.")
    var loop = false
    @Option(name: .long, help: "--loop: stop after this many tags.")
    var count: Int?
    @Option(name: .long, help: "--loop: the number {n} stands for in --uri and --text on the first tag (default 1).")
    var start: Int = 1
    @Option(
        name: .long,
        help:
            "--loop: one message per tag from this file: JSON lines, or CSV whose header names a record per column (uri, text, text:LANG).")
    var from: String?
    @Option(name: .long, help: "--loop: append one JSON line per tag written (time, UID, number, message) to this file.")
    var log: String?
    /// The old `--json FILE`: ArgumentParser reads `--json` as the flag and FILE as this argument.
    @Argument(help: ArgumentHelp(visibility: .hidden))
    var oldJSONFile: String?

    var hasRecords: Bool { records.hasRecords }

    /// Where the message comes from, after the old spellings are mapped to the new ones.
    private enum Source {
        case records
        case file(String)
        case hex(String)
    }

    private func source() throws -> Source {
        let oldHexMessage = !hasRecords && !records.hex.isEmpty
        var sources: [Source] = []
        if hasRecords { sources.append(.records) }
        if let message { sources.append(.file(message)) }
        if let oldJSONFile { sources.append(.file(oldJSONFile)) }
        if oldHexMessage { sources.append(.hex(records.hex[0])) }
        if sources.isEmpty { throw ValidationError("give records (--uri, --text, --mime, --external) or --message FILE") }
        if sources.count > 1 { throw ValidationError("records and --message FILE are alternatives") }
        if oldHexMessage && records.hex.count > 1 { throw ValidationError("give the encoded message in one --hex") }
        if oldJSONFile != nil && !json {
            throw ValidationError("unexpected argument \(oldJSONFile ?? ""): give the message file with --message FILE")
        }
        return sources[0]
    }

    func validate() throws {
        if !loop, count != nil || start != 1 || from != nil || log != nil {
            throw ValidationError("--count, --start, --from and --log go with --loop")
        }
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
        if from != nil {
            if hasRecords || message != nil || oldJSONFile != nil || !records.hex.isEmpty {
                throw ValidationError("--from FILE gives each tag its message: leave out records and --message")
            }
            return
        }
        _ = try source()
    }

    func encodedMessage() throws -> [UInt8] {
        switch try source() {
        case .file(let path):
            if path == oldJSONFile { Output.deprecated("--json FILE", use: "--message FILE (--json is now JSON output)") }
            let bytes = try MessageFile.read(path).bytes
            try NDEFVerification.verify(bytes)
            return bytes
        case .hex(let hex):
            Output.deprecated("--hex MESSAGE", use: "--message FILE (hex, binary or JSON; - for standard input)")
            let bytes = try Input.hex(hex, what: "--hex")
            try NDEFVerification.verify(bytes)
            return bytes
        case .records:
            let specs = try RecordArguments.specs(from: Invocation.arguments)
            let bytes: [UInt8]
            do {
                bytes = try NDEFMessage(records: try RecordArguments.records(from: specs)).encoded()
            } catch let error as NDEFError {
                throw CLIError(.badInput, "cannot encode: \(error)")
            }
            try NDEFVerification.verify(bytes)
            return bytes
        }
    }

    func run() async throws {
        if loop { return try await runLoop() }
        let message = try encodedMessage()
        let json = wantsJSONOutput
        let (_, stats) = try await TagSession.run(readerOptions, access: .modify, json: json, password: password) { connection, engine in
            try await engine.writeNDEF(message, on: connection)
        }
        guard json else {
            Output.line("wrote \(message.count) bytes")
            return
        }
        var fields: [(String, JSONValue)] = [("written", .bool(true)), ("hex", .string(Hex.encode(message)))]
        if let decoded = try? NDEFMessage(decoding: message),
            case .object(let body) = NDEFJSON.json(for: decoded, options: .strict, length: message.count)
        {
            fields += body
        }
        if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
        Output.line(JSONValue.object(fields).serialized(pretty: true))
    }

    /// `--loop`: the message source for each tag, then the loop (``WriteLoop``).
    private func runLoop() async throws {
        let source: WriteLoop.Source
        if let from {
            source = .lines(try WriteLoopFile.messages(from))
        } else if hasRecords {
            source = .template(try RecordArguments.specs(from: Invocation.arguments))
        } else {
            source = .fixed(try encodedMessage())
        }
        try await WriteLoop(source: source, count: count, start: start, log: log, json: wantsJSONOutput)
            .run(readerOptions, password: password)
    }
}
