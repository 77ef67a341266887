import ArgumentParser

/// `nfc ndef` — the offline NDEF codec.
struct NDEFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ndef",
        abstract: "Decode and encode NDEF messages (no tag needed).",
        subcommands: [NDEFDecodeCommand.self, NDEFEncodeCommand.self]
    )
}
