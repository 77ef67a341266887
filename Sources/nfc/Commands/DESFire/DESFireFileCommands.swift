import ArgumentParser
import NFCBytes
import NFCDESFire

/// `nfc desfire create-file --aid AID --file N --type T [kind options] [--mode M] [--read A] [--write A] [--read-write A] [--change A] [--iso-id HEX] [--key HEX|-]`
struct DESFireCreateFileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-file",
        abstract: "Create a file: standard or backup data (--size), value (--lower/--upper/--value), linear or cyclic records.",
        discussion: """
            Access conditions are a key number (0-13), free or never; by default reading and writing are free \
            and changing the settings takes key 0. --mode plain, mac or full is how data travels when a key \
            grants access. --iso-id gives the file an ISO identifier in an application that has them. --key \
            (the application's master key) is needed unless the application allows free creation.
            """)

    /// A file kind as the option spells it.
    enum FileType: String, ExpressibleByArgument, CaseIterable {
        case standard, backup, value
        case linearRecord = "linear-record"
        case cyclicRecord = "cyclic-record"
    }

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The file number, 0-31.")
    var file: UInt8
    @Option(name: .long, help: "standard, backup, value, linear-record or cyclic-record.")
    var type: FileType
    @Option(name: .long, help: "A data file's size in bytes.")
    var size: Int?
    @Option(name: .customLong("record-size"), help: "A record file's record size in bytes.")
    var recordSize: Int?
    @Option(name: .long, help: "A record file's number of records.")
    var records: Int?
    @Option(name: .long, help: "A value file's lowest value (default 0).")
    var lower: Int32?
    @Option(name: .long, help: "A value file's highest value (default 2147483647).")
    var upper: Int32?
    @Option(name: .long, help: "A value file's starting value (default 0).")
    var value: Int32?
    @Flag(name: .customLong("limited-credit"), help: "Allow LimitedCredit on a value file.")
    var limitedCredit = false
    @Option(name: .long, help: "plain, mac or full.")
    var mode: String = "plain"
    @Option(name: .long, help: "Who reads: a key number, free or never.")
    var read: String = "free"
    @Option(name: .long, help: "Who writes.")
    var write: String = "free"
    @Option(name: .customLong("read-write"), help: "Who reads and writes.")
    var readWrite: String = "free"
    @Option(name: .customLong("change"), help: "Who changes the settings.")
    var change: String = "0"
    @Option(name: .customLong("iso-id"), help: "An ISO file identifier, four hex digits (E104).")
    var isoID: String?

    func run() async throws {
        _ = try target.requiredApplication("create-file")
        let file = try DESFireRunner.file(self.file)
        guard let mode = DESFireCommunicationMode(rawValue: mode) else {
            throw CLIError(.usage, "--mode is plain, mac or full, not \(mode)")
        }
        let access = DESFireClient.FileAccess(
            isoFileIdentifier: try isoID.map(Self.isoIdentifier), mode: mode, read: try DESFireRunner.access(read, option: "--read"),
            write: try DESFireRunner.access(write, option: "--write"),
            readWrite: try DESFireRunner.access(readWrite, option: "--read-write"),
            change: try DESFireRunner.access(change, option: "--change"))
        let type = self.type
        let size = self.size
        let recordSize = self.recordSize
        let records = self.records
        let (lower, upper, value, limitedCredit) = (self.lower ?? 0, self.upper ?? Int32.max, self.value ?? 0, self.limitedCredit)
        let valueOptions = self.lower != nil || self.upper != nil || self.value != nil || limitedCredit
        let recordOptions = recordSize != nil || records != nil
        switch type {
        case .standard, .backup:
            guard size != nil else { throw CLIError(.usage, "a \(type.rawValue) file needs --size") }
            guard !valueOptions, !recordOptions else {
                throw CLIError(.usage, "a \(type.rawValue) file takes --size, not value or record options")
            }
        case .linearRecord, .cyclicRecord:
            guard recordSize != nil, records != nil else { throw CLIError(.usage, "a record file needs --record-size and --records") }
            guard size == nil, !valueOptions else {
                throw CLIError(.usage, "a record file takes --record-size and --records, not --size or value options")
            }
        case .value:
            guard size == nil, !recordOptions else {
                throw CLIError(.usage, "a value file takes --lower, --upper, --value and --limited-credit only")
            }
            guard isoID == nil else { throw CLIError(.usage, "a value file has no ISO file identifier (--iso-id)") }
        }
        try await DESFireRunner.run(readerOptions, target, json: false) { client in
            do {
                switch type {
                case .standard, .backup: try await client.createDataFile(file, size: size ?? 0, access: access, backup: type == .backup)
                case .value:
                    try await client.createValueFile(
                        file, lower: lower, upper: upper, value: value, limitedCredit: limitedCredit, access: access)
                case .linearRecord, .cyclicRecord:
                    try await client.createRecordFile(
                        file, recordSize: recordSize ?? 0, maximumRecords: records ?? 0, cyclic: type == .cyclicRecord, access: access)
                }
            } catch let error as DESFireError where error.code == .invalidArgument {
                throw CLIError(.usage, error.reason)
            }
        }
        Output.line("created \(type.rawValue) file \(file)")
    }

    /// Four hex digits as an ISO identifier.
    static func isoIdentifier(_ text: String) throws -> UInt16 {
        let bytes = try Input.hex(text, what: "--iso-id")
        guard bytes.count == 2 else { throw CLIError(.usage, "--iso-id takes four hex digits, not \(text)") }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}

/// `nfc desfire delete-file --aid AID --file N [--key HEX|-]`
struct DESFireDeleteFileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-file",
        abstract: "Delete a file (--key, the application's master key, unless the application allows free deletion).")

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The file number, 0-31.")
    var file: UInt8

    func run() async throws {
        _ = try target.requiredApplication("delete-file")
        let file = try DESFireRunner.file(self.file)
        try await DESFireRunner.run(readerOptions, target, json: false) { client in try await client.deleteFile(file) }
        Output.line("deleted file \(file)")
    }
}
