import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc scan [--all] [--reader R] [--json] [--stats]`
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Poll and print the tag's identity: type, UID, ATQA/SAK, memory, NDEF status.",
        discussion: """
            The identity is always printed when it was read. When the NDEF status cannot be read \
            (a password-protected tag, say), it says why and the exit status is 6 (incomplete).

            --all lists every tag the reader sees: each image of --reader sim:FOLDER (one field), \
            the card in each PC/SC reader, up to two ISO/IEC 14443 A tags and a FeliCa and a type B \
            one on a PN532.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "List every tag the reader sees, not just one.")
    var all = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        if all { return try await scanAll() }
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

    /// `--all`: each tag's identity and NDEF status, one after the other.
    private func scanAll() async throws {
        let pwd = try password.bytes()
        let pack = try password.expectedPACK()
        let reader = try await CLIReaders.open(readerOptions, access: .read)
        var found: [(TargetInfo, Result<(TagIdentity, TagText.StatusReading), any Error>)] = []
        do {
            if let targets = try await reader.allTargets() {
                for target in targets { found.append((target, await Self.scan(target, reader: reader, password: pwd, pack: pack))) }
            } else {
                // A reader that holds one tag at a time (a program playing the card): that tag.
                let connection = try await reader.connect()
                found.append((connection.target, await Self.identify(connection.target, on: connection, password: pwd, pack: pack)))
                await connection.disconnect()
            }
        } catch {
            _ = try? await reader.finish()
            throw error
        }
        _ = try await reader.finish()
        let stats = reader.meter.statistics
        var incomplete = false
        var entries: [JSONValue] = []
        for (index, (target, result)) in found.enumerated() {
            switch result {
            case .success(let (identity, status)):
                if case .unavailable = status { incomplete = true }
                if json {
                    entries.append(.object(TagText.identityJSON(target: target, identity: identity, status: status)))
                } else {
                    Output.line((index > 0 ? "\n" : "") + TagText.identityText(target: target, identity: identity, status: status))
                }
            case .failure(let error):
                incomplete = true
                let reason = (error as? CLIError)?.description ?? "\(error)"
                if json {
                    entries.append(
                        .object([
                            ("family", .string(TagFamily(target).rawValue)), ("technology", .string(target.technology.rawValue)),
                            ("uid", .string(Hex.encode(target.identifier))), ("error", .string(reason)),
                        ]))
                } else {
                    Output.line(
                        (index > 0 ? "\n" : "")
                            + "\(target.technology) \(Hex.encode(target.identifier, uppercase: true)): \(TerminalText.escape(reason))")
                }
            }
        }
        if found.isEmpty { throw CLIError(.notFound, "no tag in the field") }
        if json {
            var fields: [(String, JSONValue)] = [("tags", .array(entries)), ("count", .int(Int64(found.count)))]
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            Output.line("\n\(found.count) tag\(found.count == 1 ? "" : "s")")
            if readerOptions.stats { Output.error(StatisticsText.line(stats)) }
        }
        if incomplete { throw ExitCode(CLIError.Code.incomplete.exitStatus) }
    }

    /// One tag of `--all`: connect, open it with the password when it is a Type 2 tag, identify.
    private static func scan(_ target: TargetInfo, reader: any CLIReader, password: [UInt8]?, pack: [UInt8]?) async -> Result<
        (TagIdentity, TagText.StatusReading), any Error
    > {
        let connection: any TagConnection
        do {
            connection = try await reader.connect(to: target)
        } catch {
            return .failure(error)
        }
        let result = await identify(target, on: connection, password: password, pack: pack)
        await connection.disconnect()
        return result
    }

    private static func identify(_ target: TargetInfo, on connection: any TagConnection, password: [UInt8]?, pack: [UInt8]?) async
        -> Result<(TagIdentity, TagText.StatusReading), any Error>
    {
        let engine = TagEngines.engine(for: TagFamily(target))
        do {
            if TagFamily(target) == .type2 { try await TagPasswordOptions.authenticate(password: password, pack: pack, on: connection) }
            let identity = try await engine.identify(on: connection)
            do throws(TagEngineError) {
                return .success((identity, .read(try await engine.queryStatus(on: connection))))
            } catch {
                return .success((identity, .unavailable(await reason(error, engine: engine, connection: connection))))
            }
        } catch let error as TagEngineError {
            return .failure(CLIError(EngineErrorText.line(error)))
        } catch {
            return .failure(error)
        }
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
