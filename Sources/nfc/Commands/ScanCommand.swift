import ArgumentParser
import NDEFJSON
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc scan [--reader R] [--json] [--stats]`
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Poll and print the tag's identity: type, UID, ATQA/SAK, memory, NDEF status.",
        discussion: """
            The identity is always printed when it was read. When the NDEF status cannot be read \
            (a password-protected tag, say), it says why and the exit status is 6 (incomplete).
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let ((target, identity, status), stats) = try await TagSession.run(readerOptions, access: .read, json: json, password: password) {
            connection, engine in
            let identity = try await engine.identify(on: connection)
            do throws(TagEngineError) {
                return (connection.target, identity, TagText.StatusReading.read(try await engine.queryStatus(on: connection)))
            } catch {
                return (connection.target, identity, .unavailable(await Self.reason(error, engine: engine, connection: connection)))
            }
        }
        if json {
            var fields = TagText.identityJSON(target: target, identity: identity, status: status)
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            Output.line(TagText.identityText(target: target, identity: identity, status: status))
        }
        if case .unavailable = status { throw ExitCode(CLIError.Code.incomplete.exitStatus) }
    }

    /// Why the NDEF status could not be read: for a tag that refused part of its memory, which
    /// part (found by reading what it does give), else the engine's own words.
    private static func reason(_ error: TagEngineError, engine: any NDEFTagEngine, connection: any TagConnection) async -> String {
        if error.code == .tagError || error.code == .authenticationFailed,
            let dump = try? await engine.memoryDump(on: connection), let gap = dump.unreadable.first
        {
            return "protected: \(gap.first)–\(gap.last) (\(gap.count) pages) refused without the password (give it with --password)"
        }
        return EngineErrorText.line(error)
    }
}
