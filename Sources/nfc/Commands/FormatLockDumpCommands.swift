import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCSimulator
import NFCTags
import NFCTransport

/// `nfc format [--reader R] [--json] [--stats]`
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Format a blank tag for NDEF (an empty message)."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let (_, stats) = try await TagSession.run(readerOptions, access: .modify, json: json, password: password) { connection, engine in
            try await engine.format(on: connection)
        }
        guard json else { return Output.line("formatted") }
        Output.line(DoneJSON.object([("formatted", .bool(true))], stats: readerOptions.stats ? stats : nil))
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

/// `nfc dump [--reader R] [--json] [--stats]`
struct DumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Hex dump of the tag's memory (pages, blocks or files).",
        discussion: """
            Memory the tag refuses to give (password-protected pages) is marked as unreadable, \
            and the exit status is then 6 (incomplete) after the rows that were read.
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var password: TagPasswordOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
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
