import ArgumentParser
import NFCDESFire

/// `nfc ntag424 set-lrp [--key HEX|-] [--yes]`
struct NTAG424SetLRPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-lrp",
        abstract: "Switch the tag to LRP mode for good (SetConfiguration option 05): LRP authentication and secure messaging from then on.",
        discussion: """
            This cannot be undone. The reader authenticates with key 0 (--key). SDM is switched off and \
            must be set again (nfc ntag424 sdm, where {picc} then takes 48 characters); the other \
            nfc ntag424 commands use LRP on such a tag by themselves, and nfc sun verify reads its \
            messages. See docs/ntag424.md.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "Key 0, 16 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?
    @Flag(name: .long, help: "Do not ask for confirmation: LRP mode cannot be undone.")
    var yes = false

    func run() async throws {
        try Confirmation.require(yes, "Switch this NTAG 424 DNA to LRP mode for good (AES authentication ends; SDM is switched off)?")
        let master = try NTAG424Runner.key(try SecretInput.read(key, option: "--key", prompt: "NTAG 424 key 0 (hex)"), option: "--key")
        let already = try await NTAG424Runner.run(readerOptions, json: false) { client in
            try await client.authenticate(keyNumber: 0, key: master)
            if case .lrp = await client.channel { return true }
            try await client.enableLRP()
            return false
        }
        Output.line(
            already ? "The tag is in LRP mode already: nothing changed." : "LRP mode on: from now on the tag takes LRP authentication only."
        )
    }
}
