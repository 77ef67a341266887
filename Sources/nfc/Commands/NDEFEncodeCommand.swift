import ArgumentParser
import Foundation
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON

/// `nfc ndef encode (records… | --message FILE | --lines) [--chunk-size N] [-o FILE [--force]] [--json]`
struct NDEFEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Build an NDEF message and print it as hex (or write raw bytes with -o).",
        discussion: """
            Records are given in order with --uri, --text (with an optional --lang after it), \
            --mime TYPE or --external DOMAIN:TYPE each with --payload-file F or --payload-hex H after it; \
            or the whole message with --message FILE (binary, hex or the JSON form of docs/ndef-json.md; \
            - for standard input). -o writes the raw bytes (an existing file only with --force); --json \
            prints the message's JSON form and hex. With --lines, standard input holds one compact JSON \
            message per line and one hex line is printed per line.
            """
    )

    @OptionGroup var records: RecordOptions
    @Option(name: .long, help: "The whole message from this file (- for standard input): binary, hex or JSON.")
    var message: String?
    @Option(name: .customLong("chunk-size"), help: "Chunk payloads longer than this many bytes.")
    var chunkSize: Int?
    @Option(name: .shortAndLong, help: "Write the raw bytes to this file instead of printing hex.")
    var output: String?
    @Flag(name: .long, help: "Replace an existing -o file.")
    var force = false
    @Flag(name: .long, help: "Print the message's JSON form (docs/ndef-json.md) and its hex.")
    var json = false
    @Flag(name: .long, help: "Batch mode: one compact JSON message per input line, one hex line per output line.")
    var lines = false
    /// The old `--json FILE`: ArgumentParser reads `--json` as the flag and FILE as this argument.
    @Argument(help: ArgumentHelp(visibility: .hidden))
    var oldJSONFile: String?

    var hasRecordOptions: Bool { records.hasRecords }

    /// The message file, new or old spelling.
    private var messageFile: String? { message ?? oldJSONFile }

    func validate() throws {
        let modes = [hasRecordOptions, messageFile != nil, lines].filter { $0 }.count
        if modes == 0 { throw ValidationError("give records (--uri, --text, --mime, --external), --message FILE, or --lines") }
        if modes > 1 || (message != nil && oldJSONFile != nil) {
            throw ValidationError("record options, --message FILE and --lines are alternatives")
        }
        if oldJSONFile != nil && !json {
            throw ValidationError("unexpected argument \(oldJSONFile ?? ""): give the message file with --message FILE")
        }
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        if lines && output != nil { throw ValidationError("--lines prints hex lines; -o is not available") }
        if lines && json { throw ValidationError("--lines prints hex lines; --json is not available") }
    }

    func run() throws {
        if lines {
            runLines()
            return
        }
        try Output.checkWritable(output, force: force)
        let message: NDEFMessage
        if let messageFile {
            if oldJSONFile != nil { Output.deprecated("--json FILE", use: "--message FILE (--json is now JSON output)") }
            let bytes = try MessageFile.read(messageFile).bytes
            do {
                message = try NDEFMessage(decoding: bytes)
            } catch {
                throw CLIError(
                    .badInput, "\(messageFile == "-" ? "standard input" : messageFile): malformed NDEF: \(error)", offset: error.offset)
            }
        } else {
            message = NDEFMessage(records: try RecordArguments.records(from: try RecordArguments.specs(from: Invocation.arguments)))
        }
        let bytes: [UInt8]
        do {
            bytes = try message.encoded(chunkSize: chunkSize)
        } catch {
            throw CLIError(.badInput, "cannot encode: \(error)")
        }
        try NDEFVerification.verify(bytes)
        if let output { try Output.writeFile(output, bytes, force: force) }
        if json && oldJSONFile == nil {
            var fields: [(String, JSONValue)] = [("hex", .string(Hex.encode(bytes)))]
            if case .object(let body) = NDEFJSON.json(for: message, options: .strict, length: bytes.count) { fields += body }
            if let output { fields.append(("output", .string(output))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else if output == nil {
            Output.line(Hex.encode(bytes))
        }
    }

    private func runLines() {
        while let line = readLine(strippingNewline: true) {
            do {
                let message = try NDEFJSONFile.message(Array(line.utf8), source: "line")
                let bytes = try message.encoded(chunkSize: chunkSize)
                try NDEFVerification.verify(bytes)
                Output.line(Hex.encode(bytes))
            } catch let error as NDEFError {
                Output.line(NDEFJSON.errorJSON(error).serialized())
            } catch let error as CLIError {
                Output.line(
                    JSONValue.object([("error", .object([("code", .string("invalidInput")), ("reason", .string(error.description))]))])
                        .serialized())
            } catch {
                let e: JSONValue = .object([("code", .string("invalidInput")), ("reason", .string("\(error)"))])
                Output.line(JSONValue.object([("error", e)]).serialized())
            }
        }
    }
}
