import ArgumentParser

/// `nfc` — the OpenCoreNFC command-line tool.
struct NFCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfc",
        abstract: "NFC from the command line: NDEF, tags, readers and the simulator.",
        discussion: "See README.md and docs/ for the JSON forms and the exit statuses.",
        version: "0.1.0",
        subcommands: [
            ReadersCommand.self, ScanCommand.self, ReadCommand.self, WriteCommand.self, FormatCommand.self,
            LockCommand.self, DumpCommand.self, RestoreCommand.self, ProtectCommand.self, UnprotectCommand.self, APDUCommand.self,
            NDEFCommand.self,
            TagCommand.self, EmulateCommand.self,
            LintCommand.self, DispatchCommand.self, WatchCommand.self, OATHCommand.self, FIDOCommand.self, PIVCommand.self,
            SUNCommand.self, NTAG424Command.self, DESFireCommand.self, MIFAREPlusCommand.self, PassportCommand.self,
        ]
    )
}
