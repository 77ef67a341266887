import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc desfire read --aid AID --file N [--offset O] [--length L] [--key HEX|- [--key-number K]] [--json]`
struct DESFireReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a file: a data file's bytes, a value file's value, or a record file's records.",
        discussion: """
            Data files print their bytes as hex (--offset and --length pick a range); value files their \
            committed value; record files one line of hex per record, oldest first (--offset counts back from \
            the newest, --length is how many). Without --key only free access works.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The file number, 0-31.")
    var file: UInt8
    @Option(name: .long, help: "The first byte (data files) or how many records back from the newest (record files).")
    var offset: Int = 0
    @Option(name: .long, help: "How many bytes or records (default: all).")
    var length: Int?
    @Flag(name: .long, help: "Print JSON: {\"file\", \"type\", and \"data\", \"value\" or \"records\"}.")
    var json = false

    enum Contents {
        case data([UInt8])
        case value(Int32)
        case records([[UInt8]])
    }

    func run() async throws {
        _ = try target.requiredApplication("read")
        let file = try DESFireRunner.file(self.file)
        guard offset >= 0, (length ?? 0) >= 0 else { throw CLIError(.usage, "--offset and --length are not negative") }
        let (kind, contents) = try await DESFireRunner.run(readerOptions, target, json: json) { client -> (String, Contents) in
            let settings = try await client.fileSettings(file)
            switch settings.kind {
            case .standard, .backup:
                return (settings.kind.name, .data(try await client.read(file: file, offset: offset, length: length)))
            case .value:
                return (settings.kind.name, .value(try await client.value(file: file)))
            case .linearRecord, .cyclicRecord:
                return (settings.kind.name, .records(try await client.readRecords(file: file, offset: offset, count: length ?? 0)))
            }
        }
        if json {
            var fields: [(String, JSONValue)] = [("file", .int(Int64(file))), ("type", .string(kind))]
            switch contents {
            case .data(let bytes): fields.append(("data", .string(Hex.encode(bytes))))
            case .value(let value): fields.append(("value", .int(Int64(value))))
            case .records(let records): fields.append(("records", .array(records.map { .string(Hex.encode($0)) })))
            }
            Output.line(JSONValue.object(fields).serialized(pretty: true))
            return
        }
        switch contents {
        case .data(let bytes): Output.line(Hex.encode(bytes, uppercase: true))
        case .value(let value): Output.line(String(value))
        case .records(let records): for record in records { Output.line(Hex.encode(record, uppercase: true)) }
        }
    }
}

/// `nfc desfire write --aid AID --file N --hex HEX [--offset O] [--no-commit] [--key HEX|- [--key-number K]]`
struct DESFireWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write bytes into a data file, or add a record to a record file.",
        discussion: """
            A standard file changes at once. A backup file's bytes and a new record wait for \
            CommitTransaction, which this command sends unless --no-commit (then the change is lost when the \
            card leaves the field, as the card intends). For a record file --offset is the place within the record.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The file number, 0-31.")
    var file: UInt8
    @Option(name: .long, help: "The bytes to write, as hex.")
    var hex: String
    @Option(name: .long, help: "Where the bytes go in the file (or in the record).")
    var offset: Int = 0
    @Flag(name: .customLong("no-commit"), help: "Leave the transaction open instead of committing it.")
    var noCommit = false

    func run() async throws {
        _ = try target.requiredApplication("write")
        let file = try DESFireRunner.file(self.file)
        let data = try Input.hex(hex, what: "--hex")
        guard !data.isEmpty else { throw CLIError(.usage, "--hex holds no bytes") }
        guard offset >= 0 else { throw CLIError(.usage, "--offset is not negative") }
        let what = try await DESFireRunner.run(readerOptions, target, json: false) { client -> String in
            let settings = try await client.fileSettings(file)
            switch settings.kind {
            case .standard:
                guard !noCommit else {
                    throw CLIError(.usage, "file \(file) is a standard file: it has no transaction to leave open (--no-commit)")
                }
                try await client.write(data, file: file, offset: offset)
                return "wrote \(data.count) bytes to file \(file) at \(offset)"
            case .backup:
                try await client.write(data, file: file, offset: offset)
                if !noCommit { try await client.commit() }
                return "wrote \(data.count) bytes to backup file \(file) at \(offset)" + (noCommit ? " (not committed)" : ", committed")
            case .linearRecord, .cyclicRecord:
                try await client.writeRecord(data, file: file, offset: offset)
                if !noCommit { try await client.commit() }
                return "added a record of \(data.count) bytes to file \(file)" + (noCommit ? " (not committed)" : ", committed")
            case .value:
                throw CLIError(.usage, "file \(file) is a value file: use nfc desfire value --credit/--debit")
            }
        }
        Output.line(what)
    }
}

/// `nfc desfire value --aid AID --file N (--credit N | --debit N | --limited-credit N) [--key HEX|- [--key-number K]] [--json]`
struct DESFireValueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "value",
        abstract: "Credit, debit or give back (limited credit) a value file, committed; prints the new value.",
        discussion: """
            Credit needs the file's read-write key, debit its read, write or read-write key, limited credit its \
            write or read-write key (and the file must allow it: at most what the last transaction debited).
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The value file's number, 0-31.")
    var file: UInt8
    @Option(name: .long, help: "Add this amount.")
    var credit: Int32?
    @Option(name: .long, help: "Take this amount.")
    var debit: Int32?
    @Option(name: .customLong("limited-credit"), help: "Give back up to what the last transaction debited.")
    var limitedCredit: Int32?
    @Flag(name: .long, help: "Print JSON: {\"file\", \"value\"}.")
    var json = false

    func run() async throws {
        _ = try target.requiredApplication("value")
        let file = try DESFireRunner.file(self.file)
        let given: [(DESFireClient.ValueOperation, Int32)] = [
            (.credit, credit), (.debit, debit), (.limitedCredit, limitedCredit),
        ].compactMap { operation, amount in amount.map { (operation, $0) } }
        guard given.count == 1, let (operation, amount) = given.first else {
            throw CLIError(.usage, "give one of --credit, --debit or --limited-credit")
        }
        guard amount >= 0 else { throw CLIError(.usage, "--\(operation.rawValue) takes an amount of 0 or more") }
        let value = try await DESFireRunner.run(readerOptions, target, json: json) { client in
            try await client.change(value: operation, file: file, amount: amount)
            try await client.commit()
            return try await client.value(file: file)
        }
        if json {
            Output.line(JSONValue.object([("file", .int(Int64(file))), ("value", .int(Int64(value)))]).serialized(pretty: true))
        } else {
            Output.line("file \(file): \(value)")
        }
    }
}
