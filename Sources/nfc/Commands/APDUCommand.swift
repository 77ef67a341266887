import ArgumentParser
import Foundation
import ISO7816
import Logging
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTransport

/// `nfc apdu [--reader R] [--raw] [--json] (HEX... | --script FILE|-)`, or a prompt on a terminal.
struct APDUCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apdu",
        abstract: "Send APDUs to an ISO 7816 tag and print each response and status word.",
        discussion: """
            Each argument is one command APDU in hex (spaces and colons allowed when quoted). \
            Responses print as "DATA SW" per line. Unless --raw, 61xx is followed with GET RESPONSE, \
            6Cxx is retried with the right Le, and long commands are chained or sent extended. \
            A status word other than 9000 is printed, not an error; the exit status is non-zero only \
            when a command cannot be sent. \
            --script FILE (- for standard input) runs a script: an APDU per line, # comments, reset \
            (activate the card again), quit, and "expect SW" after an APDU (x for any digit: 61xx), \
            which stops the script with exit status 1 when the card answers otherwise. Each answer is \
            printed with its ISO 7816-4 meaning. Without APDUs or --script, a terminal gets a prompt \
            taking the same lines, and other standard input is read as a script.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Send each APDU exactly as given.")
    var raw = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false
    @Option(name: .long, help: "Run the APDU script in this file (- for standard input).")
    var script: String?
    @Argument(help: "Command APDUs in hex.")
    var apdus: [String] = []

    func validate() throws {
        if script != nil && !apdus.isEmpty { throw ValidationError("give APDUs or --script FILE, not both") }
    }

    /// Where the steps come from.
    private enum Source {
        case arguments([(bytes: [UInt8], apdu: CommandAPDU)])
        case script([(line: Int, step: APDUScript.Step)])
        case prompt
    }

    private func source() throws -> Source {
        if let script {
            let bytes = script == "-" ? Input.readStandardInput() : try Input.readFile(script, limit: 16 << 20)
            return .script(try APDUScript.steps(String(decoding: bytes, as: UTF8.self)))
        }
        if apdus.isEmpty {
            if isatty(STDIN_FILENO) == 1 {
                if json { throw CLIError(.usage, "--json needs APDUs or --script FILE; the prompt prints text") }
                return .prompt
            }
            return .script(try APDUScript.steps(String(decoding: Input.readStandardInput(), as: UTF8.self)))
        }
        var commands: [(bytes: [UInt8], apdu: CommandAPDU)] = []
        for (index, text) in apdus.enumerated() {
            let bytes = try Input.hex(text, what: "APDU \(index + 1)")
            do {
                commands.append((bytes, try CommandAPDU(parsing: bytes)))
            } catch {
                throw CLIError("APDU \(index + 1) (\(text)): \(error)")
            }
        }
        return .arguments(commands)
    }

    func run() async throws {
        let source = try source()
        var fromArguments = false
        if case .arguments = source { fromArguments = true }
        // APDUs given as arguments keep their plain "DATA SW" lines, printed at the end.
        let runner = APDURunner(raw: raw, printing: !json && !fromArguments)
        let (outcome, stats) = try await TagSession.runResettable(readerOptions, access: .modify, json: json) { tag in
            guard tag.connection.target.speaksISODEP else {
                throw CLIError("the tag is not an ISO 7816 tag (\(tag.connection.target.technology) storage tag): it takes no APDUs")
            }
            switch source {
            case .arguments(let commands):
                var exchanges: [APDURunner.Exchange] = []
                for (index, command) in commands.enumerated() {
                    exchanges.append(try await runner.send(command.bytes, command.apdu, on: tag, label: "APDU \(index + 1)"))
                }
                return APDURunner.Outcome(exchanges: exchanges, stop: nil)
            case .script(let steps):
                return try await runner.run(steps, on: tag)
            case .prompt:
                return try await runner.prompt(on: tag)
            }
        }
        if json {
            var fields: [(String, JSONValue)] = [("responses", .array(outcome.exchanges.map(\.json)))]
            if let stop = outcome.stop { fields.append(("stopped", stop.json)) }
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else if fromArguments {
            for exchange in outcome.exchanges {
                let sw = Hex.encode(exchange.response.statusWord.bytes)
                Output.line(exchange.response.data.isEmpty ? sw : Hex.encode(exchange.response.data) + " " + sw)
            }
        }
        if let stop = outcome.stop {
            Output.error(stop.lineText)
            throw ExitCode(CLIError.Code.failure.exitStatus)
        }
    }
}

/// Sends APDUs over a tag connection (ISO-DEP targets carry one APDU per `transceive`), and logs
/// each one: its header and status word at `debug` (`-v`), the whole APDU and answer at `trace` (`-vv`).
struct ConnectionAPDUTransmitter: APDUTransmitter {
    static let logger = Logger(label: "opencorenfc.apdu")
    let connection: any TagConnection
    var supportsExtendedLength: Bool { connection.limits.extendedLengthAPDUs }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        Self.logger.trace("→ \(Hex.encode(command))")
        let answer = try await connection.transceive(command, timeout: .seconds(5))
        Self.logger.trace("← \(Hex.encode(answer))")
        if answer.count >= 2 {
            Self.logger.debug(
                "APDU \(Hex.encode(Array(command.prefix(4)))): \(answer.count - 2) B, SW \(Hex.encode(Array(answer.suffix(2))))")
        }
        return answer
    }
}
