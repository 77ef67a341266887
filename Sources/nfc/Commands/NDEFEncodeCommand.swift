import ArgumentParser
import Foundation
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON

/// `nfc ndef encode (--uri U | --text T [--lang L] | --mime TYPE --file F | --external TYPE --hex H)... | --json F`
struct NDEFEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Build an NDEF message and print it as hex (or write raw bytes with -o).",
        discussion: """
            Records are given in order with --uri, --text (with an optional --lang after it), \
            --mime TYPE with --file F or --hex H after it, and --external DOMAIN:TYPE with --hex H or --file F \
            after it; or as the JSON form of docs/ndef-json.md with --json FILE (- for standard input). \
            With --lines, standard input holds one compact JSON message per line and one hex line is printed per line.
            """
    )

    @OptionGroup var records: RecordOptions
    @Option(name: .long, help: "Read the message from a JSON file (- for standard input).")
    var json: String?
    @Option(name: .customLong("chunk-size"), help: "Chunk payloads longer than this many bytes.")
    var chunkSize: Int?
    @Option(name: .shortAndLong, help: "Write the raw bytes to this file instead of printing hex.")
    var output: String?
    @Flag(name: .long, help: "Batch mode: one compact JSON message per input line, one hex line per output line.")
    var lines = false

    var hasRecordOptions: Bool { records.hasRecords }

    func validate() throws {
        let modes = [hasRecordOptions, json != nil, lines].filter { $0 }.count
        if modes == 0 { throw ValidationError("give records (--uri, --text, --mime, --external), --json FILE, or --lines") }
        if modes > 1 { throw ValidationError("record options, --json and --lines are alternatives") }
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        if lines && output != nil { throw ValidationError("--lines prints hex lines; -o is not available") }
    }

    func run() throws {
        if lines {
            runLines()
            return
        }
        let message: NDEFMessage
        if let json {
            let bytes = json == "-" ? Input.readStandardInput() : try Input.readFile(json)
            message = try NDEFJSONFile.message(bytes, source: json == "-" ? "standard input" : json)
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
        if let output {
            try Output.writeFile(output, bytes)
        } else {
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
