import ArgumentParser
import NDEF
import NDEFJSON
import NFCBytes
import NFCJSON

/// `nfc ndef decode [HEX | --message FILE | -] [--json] [--lenient] [--lines]`
struct NDEFDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NDEF message and print its records.",
        discussion: """
            The message comes from a hex argument, a file (--message: binary, hex or the JSON form, told \
            apart by the content), or standard input (- or no argument; read as hex when it holds only hex \
            digits and separators, else as raw bytes). \
            With --lines, standard input holds one hex message per line and one compact JSON object is \
            printed per line. The JSON form is documented in docs/ndef-json.md.
            """
    )

    @Argument(help: "The message as hex, or - for standard input.")
    var hex: String?

    @Option(name: .long, help: "The message from this file (- for standard input): binary, hex or JSON.")
    var message: String?

    /// Deprecated: `--message` (this one reads raw bytes only).
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var file: String?

    @Flag(name: .long, help: "Print the stable JSON form instead of text.")
    var json = false

    @Flag(name: .long, help: "Repair what can be safely repaired (missing MB/ME, trailing bytes…) instead of failing.")
    var lenient = false

    @Flag(name: .long, help: "Batch mode: one hex message per input line, one JSON object per output line.")
    var lines = false

    func validate() throws {
        if [hex != nil, message != nil, file != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of HEX and --message FILE")
        }
        if lines && (file != nil || message != nil || (hex != nil && hex != "-")) {
            throw ValidationError("--lines reads standard input only")
        }
    }

    var options: NDEFDecodingOptions { lenient ? .lenient : .strict }

    func run() throws {
        if lines {
            runLines()
            return
        }
        let bytes: [UInt8]
        if let messageFile = self.message {
            bytes = try MessageFile.read(messageFile).bytes
        } else if let file {
            Output.deprecated("--file", use: "--message FILE")
            bytes = try Input.readFile(file)
        } else if let hex, hex != "-" {
            bytes = try Input.hex(hex)
        } else {
            bytes = try Input.standardInputBytes()
        }
        let message: NDEFMessage
        do {
            message = try NDEFMessage(decoding: bytes, options: options)
        } catch {
            let failure = CLIError(.badInput, "malformed NDEF: \(error)", offset: error.offset)
            guard json else { throw failure }
            // The documented NDEF error object (docs/ndef-json.md), with the CLI's exitStatus and message added.
            var object = NDEFJSON.errorJSON(error)
            if case .object(var members) = object, case .object(var fields)? = object["error"] {
                fields += [("exitStatus", .int(Int64(failure.code.exitStatus))), ("message", .string(failure.description))]
                members = members.map { $0.0 == "error" ? ($0.0, .object(fields)) : $0 }
                object = .object(members)
            }
            Output.line(object.serialized(pretty: true))
            throw ExitCode(failure.code.exitStatus)
        }
        if json {
            Output.line(NDEFJSON.json(for: message, options: options, length: bytes.count).serialized(pretty: true))
        } else {
            Output.line(NDEFTextRenderer.render(message, length: bytes.count, options: options))
        }
    }

    private func runLines() {
        while let line = readLine(strippingNewline: true) {
            let out: JSONValue
            do {
                let bytes = try Hex.decode(line)
                let message = try NDEFMessage(decoding: bytes, options: options)
                out = NDEFJSON.json(for: message, options: options)
            } catch let error as NDEFError {
                out = NDEFJSON.errorJSON(error)
            } catch {
                out = .object([("error", .object([("code", .string("invalidHex")), ("reason", .string("\(error)"))]))])
            }
            Output.line(out.serialized())
        }
    }
}
