import ArgumentParser
import NDEF
import NDEFJSON
import NFCJSON
import NFCSimulator
import NFCTags

/// `nfc read [--reader R] [--json] [--stats]`
struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read the tag's NDEF message and print its records."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form (docs/ndef-json.md, plus status and stats).")
    var json = false

    func run() async throws {
        let (result, stats) = try await TagSession.run(readerOptions, access: .read, json: json, password: password) { connection, engine in
            try await engine.readNDEF(on: connection)
        }
        let message: NDEFMessage? =
            try result.message.isEmpty
            ? nil
            : {
                do {
                    return try NDEFMessage(decoding: result.message)
                } catch {
                    throw CLIError("the tag holds a malformed NDEF message: \(error)")
                }
            }()
        if json {
            var fields: [(String, JSONValue)] = [("status", TagText.statusJSON(result.status))]
            if let message, case .object(let body) = NDEFJSON.json(for: message, options: .strict, length: result.message.count) {
                fields += body
            } else {
                fields.append(("records", .array([])))
            }
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else if let message {
            Output.line(NDEFTextRenderer.render(message, length: result.message.count, options: .strict))
        } else {
            Output.line("empty tag (\(result.status))")
        }
    }
}
