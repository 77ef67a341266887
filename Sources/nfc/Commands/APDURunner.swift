import Foundation
import ISO7816
import NFCBytes
import NFCJSON
import NFCTransport

/// Runs `nfc apdu`'s steps on a tag: APDUs (with or without the 61xx/6Cxx handling), `reset`,
/// the expected status words of a script, and the interactive prompt.
struct APDURunner {
    /// Send each APDU exactly as given (`--raw`).
    let raw: Bool
    /// Print each exchange as it happens (`> command`, `< data SW  meaning`), for scripts and the prompt.
    let printing: Bool

    /// One command and its answer.
    struct Exchange {
        let line: Int?
        let command: [UInt8]
        let response: ResponseAPDU
        let expected: APDUScript.StatusPattern?

        var json: JSONValue {
            var fields: [(String, JSONValue)] = []
            if let line { fields.append(("line", .int(Int64(line)))) }
            fields += [
                ("command", .string(Hex.encode(command))),
                ("data", .string(Hex.encode(response.data))),
                ("sw", .string(Hex.encode(response.statusWord.bytes))),
                ("meaning", .string(response.statusWord.meaning)),
            ]
            if let expected { fields.append(("expected", .string(expected.description))) }
            return .object(fields)
        }
    }

    /// Where a script stopped: a status word that did not match its `expect`.
    struct Stop {
        let line: Int
        let expected: APDUScript.StatusPattern
        let status: StatusWord

        /// What did not match.
        var mismatch: String { "line \(line): expected \(expected), the card answered \(status) (\(status.meaning))" }
        /// The line for standard error when a script stops.
        var lineText: String { mismatch + "; the script stopped" }
        var json: JSONValue {
            .object([
                ("line", .int(Int64(line))), ("expected", .string(expected.description)),
                ("sw", .string(Hex.encode(status.bytes))), ("meaning", .string(status.meaning)),
            ])
        }
    }

    /// What ran, and where it stopped.
    struct Outcome {
        var exchanges: [Exchange]
        var stop: Stop?
    }

    /// Sends one APDU; a transport or APDU failure names `label`.
    func send(
        _ bytes: [UInt8], _ command: CommandAPDU, on tag: ResettableTag, label: String, line: Int? = nil,
        expect: APDUScript.StatusPattern? = nil
    ) async throws -> Exchange {
        let transmitter = ConnectionAPDUTransmitter(connection: tag.connection)
        let response: ResponseAPDU
        do {
            if raw {
                response = try ResponseAPDU(parsing: try await transmitter.transmit(bytes))
            } else {
                response = try await transmitter.send(command)
            }
        } catch let error as TransportError {
            throw CLIError("\(label): \(error)")
        } catch let error as APDUError {
            throw CLIError("\(label): \(error)")
        }
        let exchange = Exchange(line: line, command: bytes, response: response, expected: expect)
        if printing { Self.print(exchange) }
        return exchange
    }

    /// Runs a script's steps until its end, `quit`, or a status word its `expect` refuses.
    func run(_ steps: [(line: Int, step: APDUScript.Step)], on tag: ResettableTag) async throws -> Outcome {
        var outcome = Outcome(exchanges: [], stop: nil)
        for (line, step) in steps {
            switch step {
            case .quit:
                return outcome
            case .reset:
                try await reset(tag, line: line)
            case .apdu(let bytes, let command, let expect):
                let exchange = try await send(bytes, command, on: tag, label: "line \(line)", line: line, expect: expect)
                outcome.exchanges.append(exchange)
                if let expect, !expect.matches(exchange.response.statusWord) {
                    outcome.stop = Stop(line: line, expected: expect, status: exchange.response.statusWord)
                    return outcome
                }
            }
        }
        return outcome
    }

    /// The interactive prompt: a line at a time from the terminal, the same lines a script takes;
    /// a bad line is reported and the prompt goes on; end of input or `quit` ends it.
    func prompt(on tag: ResettableTag) async throws -> Outcome {
        var outcome = Outcome(exchanges: [], stop: nil)
        Output.error("APDUs in hex, reset, quit (# comments, expect SW); Ctrl-D ends")
        var number = 0
        while true {
            FileHandle.standardError.write(Data("apdu> ".utf8))
            guard let line = readLine(strippingNewline: true) else { break }
            number += 1
            let step: APDUScript.Step?
            do {
                step = try APDUScript.step(line, number: number)
            } catch let error as CLIError {
                Output.error("! \(error.description)")
                continue
            }
            switch step {
            case nil: continue
            case .quit?: return outcome
            case .reset?: try await reset(tag, line: number)
            case .apdu(let bytes, let command, let expect)?:
                do {
                    let exchange = try await send(bytes, command, on: tag, label: "line \(number)", line: number, expect: expect)
                    outcome.exchanges.append(exchange)
                    if let expect, !expect.matches(exchange.response.statusWord) {
                        Output.error("! " + Stop(line: number, expected: expect, status: exchange.response.statusWord).mismatch)
                    }
                } catch let error as CLIError {
                    Output.error("! \(error.description)")
                }
            }
        }
        return outcome
    }

    private func reset(_ tag: ResettableTag, line: Int) async throws {
        do {
            try await tag.reset()
        } catch let error as CLIError {
            throw CLIError(error.code, "line \(line): reset: \(error.description)")
        }
        if printing {
            Output.line("reset: \(tag.connection.target.technology) card \(Hex.encode(tag.connection.target.identifier)) active again")
        }
    }

    /// `> command` then `< data SW  (meaning)`.
    private static func print(_ exchange: Exchange) {
        Output.line("> " + Hex.encode(exchange.command))
        let status = exchange.response.statusWord
        let data = exchange.response.data.isEmpty ? "" : Hex.encode(exchange.response.data) + " "
        Output.line("< " + data + Hex.encode(status.bytes) + "  (\(status.meaning))")
    }
}
