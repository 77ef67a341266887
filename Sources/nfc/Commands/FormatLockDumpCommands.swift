import ArgumentParser
import NFCBytes
import NFCSimulator
import NFCTags

/// `nfc format [--reader R] [--stats]`
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Format a blank tag for NDEF (an empty message)."
    )

    @OptionGroup var readerOptions: ReaderOptions

    func run() async throws {
        _ = try await TagSession.run(readerOptions, access: .modify) { connection, engine in
            try await engine.format(on: connection)
        }
        Output.line("formatted")
    }
}

/// `nfc lock [--reader R] [--stats]`
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Make the tag permanently read-only. This cannot be undone."
    )

    @OptionGroup var readerOptions: ReaderOptions

    func run() async throws {
        _ = try await TagSession.run(readerOptions, access: .modify) { connection, engine in
            try await engine.makeReadOnly(on: connection)
        }
        Output.line("locked: the tag is read-only")
    }
}

/// `nfc dump [--reader R] [--json] [--stats]`
struct DumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Hex dump of the tag's memory (pages, blocks or files)."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        let (rows, stats) = try await TagSession.run(readerOptions, access: .read, json: json) { connection, engine in
            try await engine.dump(on: connection)
        }
        if json {
            var fields: [(String, JSONValue)] = [
                ("rows", .array(rows.map { .object([("address", .string($0.0)), ("data", .string(Hex.encode($0.1)))]) }))
            ]
            if readerOptions.stats { fields.append(("stats", StatisticsText.json(stats))) }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
        } else {
            let width = rows.map(\.0.count).max() ?? 0
            for (address, data) in rows {
                let printable = String(data.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
                Output.line(String(repeating: " ", count: width - address.count) + address + "  " + Hex.encode(data, separator: " ") + "  " + printable)
            }
        }
    }
}
