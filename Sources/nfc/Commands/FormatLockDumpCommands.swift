import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCDESFire
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc format [--wipe] [--reader R] [--json] [--stats]`
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Format a blank tag for NDEF (an empty message).",
        discussion: """
            --wipe also takes a formatted or damaged tag (broken TLVs, a stale message) back to an \
            empty formatted one: on NTAG21x and Ultralight EV1 every user page is cleared (page 4 \
            first becomes an empty NDEF TLV, so an interrupted wipe still reads as empty) and a \
            blank CC written; other tags are formatted, or their NDEF message emptied. Lock bits \
            and a locked CC are permanent and refused; a password stays (nfc unprotect removes it).
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Clear the tag back to an empty formatted tag, even if it holds a message or broken TLVs.")
    var wipe = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let (written, stats) = try await TagSession.run(readerOptions, access: .modify, json: json, password: password) {
            connection, engine -> Int? in
            guard wipe else {
                try await DESFireNDEFFormat.format(on: connection, engine: engine)
                return nil
            }
            return try await TagWipe.wipe(on: connection, engine: engine, authenticated: password.given)
        }
        guard json else {
            return Output.line(
                wipe ? "wiped: an empty formatted tag" + (written.map { " (\($0) pages or blocks written)" } ?? "") : "formatted")
        }
        var fields: [(String, JSONValue)] = [("formatted", .bool(true))]
        if wipe { fields.append(("wiped", .bool(true))) }
        if let written { fields.append(("pagesWritten", .int(Int64(written)))) }
        Output.line(DoneJSON.object(fields, stats: readerOptions.stats ? stats : nil))
    }
}

/// `nfc format --wipe`, per tag family.
enum TagWipe {
    /// NTAG21x and Ultralight EV1: every user page cleared (``Type2Engine/wipe(authenticated:on:)``),
    /// returning the pages written; Type 5: every data block (``Type5Engine/wipe(on:)``), returning
    /// the blocks written. Other tags (other families, and Type 2 chips whose memory map
    /// GET_VERSION does not give: NTAG203, Ultralight C): formatted when blank, else their NDEF
    /// message emptied with the engine's own tearing-safe write, returning `nil`.
    static func wipe(on connection: any TagConnection, engine: any NDEFTagEngine, authenticated: Bool) async throws -> Int? {
        if let type2 = engine as? Type2Engine {
            do {
                return try await type2.wipe(authenticated: authenticated, on: connection)
            } catch {
                // A memory map GET_VERSION does not give falls through to the NDEF-level wipe below.
                guard error.code == .unsupported && error.reason.contains("memory map is unknown") else { throw error }
            }
        }
        if let type5 = engine as? Type5Engine { return try await type5.wipe(on: connection) }
        do {
            try await DESFireNDEFFormat.format(on: connection, engine: engine)
        } catch let error as TagEngineError where error.code == .alreadyFormatted {
            try await engine.writeNDEF([], on: connection)
        }
        return nil
    }
}

/// `nfc format` on a card NFC Forum Type 4 cannot format: a MIFARE DESFire gets the NDEF
/// application of NXP's AN11004 through its own commands (``DESFireClient/formatForNDEF(ndefFileSize:piccKey:)``).
enum DESFireNDEFFormat {
    /// The engine's format; when it reports `.unsupported` on an ISO-DEP card that GetVersion says
    /// is a DESFire, the DESFire formatting instead. Anything else keeps the engine's error.
    static func format(on connection: any TagConnection, engine: any NDEFTagEngine) async throws {
        let failure: TagEngineError
        do {
            try await engine.format(on: connection)
            return
        } catch {
            failure = error
        }
        guard failure.code == .unsupported, connection.target.speaksISODEP else { throw failure }
        try await formatDESFire(on: connection, otherwise: failure)
    }

    /// The DESFire formatting, or `failure` when the card is not a DESFire.
    private static func formatDESFire(on connection: any TagConnection, otherwise failure: TagEngineError) async throws {
        let client = DESFireClient(transmitter: ConnectionAPDUTransmitter(connection: connection))
        guard let version = try? await client.version(), let generation = version.desfireGeneration else { throw failure }
        do {
            try await client.formatForNDEF(ndefFileSize: min(0x7FFF, max(256, version.storageBytes / 4)))
        } catch let refusal as DESFireError {
            switch refusal.code {
            case .authenticationError:
                throw CLIError(
                    .permission,
                    "\(generation): the PICC's key settings keep application creation to the PICC master key; create the NDEF application with nfc desfire create-app --aid 000001 --iso-id E110 --df-name D2760000850101 --key …, then run nfc format again (docs/desfire.md)"
                )
            case .duplicateError:
                throw CLIError(
                    .failure,
                    "\(generation): application 000001 exists with files, or another application holds ISO identifier E110 or DF name D2760000850101; see nfc desfire apps, and delete it first (nfc desfire delete-app)"
                )
            default:
                throw CLIError("\(generation): formatting for NDEF failed: \(refusal.reason)")
            }
        }
    }
}

/// `nfc lock [--reader R] [--json] [--stats]`
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Make the tag permanently read-only. This cannot be undone."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let (_, stats) = try await TagSession.run(readerOptions, access: .modify, json: json, password: password) { connection, engine in
            try await engine.makeReadOnly(on: connection)
        }
        guard json else { return Output.line("locked: the tag is read-only") }
        Output.line(DoneJSON.object([("locked", .bool(true)), ("readOnly", .bool(true))], stats: readerOptions.stats ? stats : nil))
    }
}

/// `nfc dump [-o image.json [--force]] [--reader R] [--json] [--stats]`
struct DumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Hex dump of the tag's memory (pages, blocks or files), or a copy of it as a tag image.",
        discussion: """
            Memory the tag refuses to give (password-protected pages) is marked as unreadable, \
            and the exit status is then 6 (incomplete) after the rows that were read.

            -o FILE saves an NTAG21x or Ultralight EV1 as a tag image: UID, every page, the \
            signature and counters (a Topaz: every block). --reader sim:FILE then is the tag, and nfc restore FILE \
            writes it onto another of the same model. Pages that could not be read keep factory \
            values and are listed in the image (unreadPages); PWD and PACK never read back, so \
            the copy holds them only when --password opened the tag.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Option(
        name: .shortAndLong, help: "Save the tag as a tag image (NTAG21x, Ultralight EV1, Topaz) for --reader sim:FILE and nfc restore.")
    var output: String?
    @Flag(name: .long, help: "Replace an existing -o file.")
    var force = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        if force && output == nil { throw ValidationError("--force replaces the -o file: give -o FILE too") }
    }

    func run() async throws {
        if let output {
            return try await TagCopyCommand.save(to: output, force: force, reader: readerOptions, password: password, json: json)
        }
        let (dump, stats) = try await TagSession.run(readerOptions, access: .read, json: json, password: password) { connection, engine in
            try await engine.memoryDump(on: connection)
        }
        if json {
            var fields: [(String, JSONValue)] = [
                ("rows", .array(dump.rows.map { .object([("address", .string($0.0)), ("data", .string(Hex.encode($0.1)))]) })),
                ("complete", .bool(dump.isComplete)),
            ]
            if !dump.isComplete {
                fields.append(
                    (
                        "unreadable",
                        .array(
                            dump.unreadable.map { gap in
                                .object([
                                    ("first", .string(gap.first)), ("last", .string(gap.last)), ("count", .int(Int64(gap.count))),
                                    ("reason", .string(gap.reason)),
                                ])
                            })
                    ))
            }
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
            if !dump.isComplete { throw ExitCode(CLIError.Code.incomplete.exitStatus) }
            return
        }
        let width = (dump.rows.map(\.0.count) + dump.unreadable.map(\.first.count)).max() ?? 0
        for (address, data) in dump.rows {
            let printable = String(data.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
            Output.line(
                String(repeating: " ", count: width - address.count) + address + "  " + Hex.encode(data, separator: " ") + "  " + printable)
        }
        for gap in dump.unreadable {
            Output.line(
                String(repeating: " ", count: width - gap.first.count) + gap.first
                    + "  ?? unreadable through \(gap.last) (\(gap.count) rows)")
        }
        if let gap = dump.unreadable.first {
            let rows = dump.unreadable.map(\.count).reduce(0, +)
            throw CLIError(.incomplete, "incomplete dump: \(rows) rows from \(gap.first) could not be read (\(gap.reason))")
        }
    }
}

/// The JSON a command that changes a tag prints: what it did, and the statistics with `--stats`.
enum DoneJSON {
    static func object(_ fields: [(String, JSONValue)], stats: ExchangeStatistics?) -> String {
        var fields = fields
        if let stats { fields.append(("stats", StatisticsText.json(stats))) }
        return JSONValue.object(fields).serialized(pretty: true)
    }
}
