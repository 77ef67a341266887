import ArgumentParser
import ISO7816
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTransport

/// `nfc apdu [--reader R] [--raw] [--json] HEX...`
struct APDUCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apdu",
        abstract: "Send APDUs to an ISO 7816 tag and print each response and status word.",
        discussion: """
            Each argument is one command APDU in hex (spaces and colons allowed when quoted). \
            Responses print as "DATA SW" per line. Unless --raw, 61xx is followed with GET RESPONSE, \
            6Cxx is retried with the right Le, and long commands are chained or sent extended. \
            A status word other than 9000 is printed, not an error; the exit status is non-zero only \
            when a command cannot be sent.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Send each APDU exactly as given.")
    var raw = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false
    @Argument(help: "Command APDUs in hex.")
    var apdus: [String]

    func validate() throws {
        if apdus.isEmpty { throw ValidationError("give at least one APDU") }
    }

    func run() async throws {
        var commands: [(bytes: [UInt8], apdu: CommandAPDU)] = []
        for (index, text) in apdus.enumerated() {
            let bytes = try Input.hex(text, what: "APDU \(index + 1)")
            do {
                commands.append((bytes, try CommandAPDU(parsing: bytes)))
            } catch {
                throw CLIError("APDU \(index + 1) (\(text)): \(error)")
            }
        }
        let raw = raw
        let (responses, stats) = try await TagSession.run(readerOptions, access: .modify, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError("the tag is not an ISO 7816 tag (\(connection.target.technology) storage tag): it takes no APDUs")
            }
            let transmitter = ConnectionAPDUTransmitter(connection: connection)
            var responses: [ResponseAPDU] = []
            for (index, command) in commands.enumerated() {
                do {
                    if raw {
                        responses.append(try ResponseAPDU(parsing: try await transmitter.transmit(command.bytes)))
                    } else {
                        responses.append(try await transmitter.send(command.apdu))
                    }
                } catch let error as TransportError {
                    throw CLIError("APDU \(index + 1): \(error)")
                } catch let error as APDUError {
                    throw CLIError("APDU \(index + 1): \(error)")
                }
            }
            return responses
        }
        if json {
            var fields: [(String, JSONValue)] = [
                (
                    "responses",
                    .array(
                        zip(commands, responses).map { command, response in
                            .object([
                                ("command", .string(Hex.encode(command.bytes))),
                                ("data", .string(Hex.encode(response.data))),
                                ("sw", .string(Hex.encode(response.statusWord.bytes))),
                            ])
                        })
                )
            ]
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            for response in responses {
                let sw = Hex.encode(response.statusWord.bytes)
                Output.line(response.data.isEmpty ? sw : Hex.encode(response.data) + " " + sw)
            }
        }
    }
}

/// Sends APDUs over a tag connection (ISO-DEP targets carry one APDU per `transceive`).
struct ConnectionAPDUTransmitter: APDUTransmitter {
    let connection: any TagConnection
    var supportsExtendedLength: Bool { connection.limits.extendedLengthAPDUs }

    func transmit(_ command: [UInt8]) async throws -> [UInt8] {
        try await connection.transceive(command, timeout: .seconds(5))
    }
}
