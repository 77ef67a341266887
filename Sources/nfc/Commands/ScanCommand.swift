import ArgumentParser
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc scan [--reader R] [--json] [--stats]`
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Poll and print the tag's identity: type, UID, ATQA/SAK, memory, NDEF status."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let ((target, identity, status), stats) = try await TagSession.run(readerOptions, access: .read, json: json) { connection, engine in
            let identity = try await engine.identify(on: connection)
            let status = try await engine.queryStatus(on: connection)
            return (connection.target, identity, status)
        }
        if json {
            var fields = TagText.identityJSON(target: target, identity: identity, status: status)
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            Output.line(TagText.identityText(target: target, identity: identity, status: status))
        }
    }
}
