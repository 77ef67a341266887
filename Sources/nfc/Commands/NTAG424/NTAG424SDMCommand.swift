import ArgumentParser
import NFCBytes
import NFCDESFire

/// `nfc ntag424 sdm --url TEMPLATE [--key HEX|-] [--meta-key N] [--file-key N] [--counter-key N|free|never]`
struct NTAG424SDMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdm",
        abstract: "Set up Secure Unique NFC: write a URL with placeholders and turn on Secure Dynamic Messaging.",
        discussion: """
            The URL's placeholders are filled in by the tag on every read: {picc} (UID and read counter, \
            encrypted with key --meta-key), or {uid} and {ctr} in the clear, {enc:TEXT} (TEXT, 16 or 32 \
            ASCII characters, encrypted with a key derived from --file-key), and {mac} (SDMMAC, from \
            --file-key; required). Example: https://example.com/tap?picc_data={picc}&cmac={mac}. The \
            reader authenticates with the NDEF file's change key (--key, key 0 unless --key-number). On a \
            tag in LRP mode (nfc ntag424 set-lrp) {picc} takes 48 characters, not 32. Check what the tag \
            gives with nfc sun verify.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keys: NTAG424KeyOptions
    @Option(name: .long, help: "The URL with {picc} or {uid}/{ctr}, optionally {enc:TEXT}, and {mac}.")
    var url: String
    @Option(name: .customLong("meta-key"), help: "The key that encrypts {picc}: 0-4.")
    var metaKey: UInt8 = 2
    @Option(name: .customLong("file-key"), help: "The key SDMMAC and {enc:…} derive from: 0-4.")
    var fileKey: UInt8 = 1
    @Option(name: .customLong("counter-key"), help: "Who may read the counter with GetFileCounters: 0-4, free or never.")
    var counterKey: String = "never"

    func run() async throws {
        guard let retrieval = NTAG424Access(text: counterKey, maximumKey: 4) else {
            throw CLIError(.usage, "--counter-key is 0-4, free or never, not \(TerminalText.escape(counterKey))")
        }
        // Checked before the tag is touched; laid out again for LRP once the session says the tag is in LRP mode.
        var template: NTAG424SUNTemplate
        do {
            template = try NTAG424SUNTemplate(url: url, metaReadKey: metaKey, fileReadKey: fileKey, counterRetrieval: retrieval)
        } catch {
            throw CLIError(.usage, "--url: \(error.reason)")
        }
        let key = try keys.required("NTAG 424 key \(try keys.number(or: 0)) (hex)")
        let number = try keys.number(or: 0)
        template = try await NTAG424Runner.run(readerOptions, json: false) { client in
            try await client.authenticate(keyNumber: number, key: key)
            if case .lrp = await client.channel {
                do {
                    template = try NTAG424SUNTemplate(
                        url: url, metaReadKey: metaKey, fileReadKey: fileKey, counterRetrieval: retrieval, lrp: true)
                } catch let error as DESFireError {
                    throw CLIError(.usage, "--url on a tag in LRP mode ({picc} takes 48 characters): \(error.reason)")
                }
            }
            try await client.write(template.ndefFile, file: 2)
            var settings = try await client.fileSettings(2)
            settings.sdm = template.sdm
            try await client.changeFileSettings(2, to: settings)
            return template
        }
        Output.line(
            "SDM on: file 2 holds \(template.ndefFile.count - 2) bytes of NDEF; settings \(Hex.encode(template.sdm.bytes, uppercase: true))"
        )
    }
}

/// `nfc ntag424 change-key --change N --new-key HEX|- [--old-key HEX|-] [--new-version V] [--key HEX|-]`
struct NTAG424ChangeKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-key",
        abstract: "Change one of the five keys (authenticated with key 0, the application master key).",
        discussion: """
            --key is key 0. Changing a key other than 0 needs its current value (--old-key, default all \
            zero, as shipped). Keep the new key: nothing can recover it. Keys given as - are read from \
            standard input, one per line, in the order --key, --new-key, --old-key.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "Key 0, 16 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?
    @Option(name: .long, help: "The key to change: 0-4.")
    var change: UInt8
    @Option(name: .customLong("new-key"), help: "The new key, 16 bytes as hex (- for standard input).")
    var newKey: String?
    @Option(name: .customLong("old-key"), help: "The key's current value (not for key 0); default all zero.")
    var oldKey: String?
    @Option(name: .customLong("new-version"), help: "The new key's version, 0-255.")
    var newVersion: UInt8 = 1

    func run() async throws {
        guard change <= 4 else { throw CLIError(.usage, "--change is 0-4, not \(change)") }
        if change == 0, oldKey != nil { throw CLIError(.usage, "--old-key is for keys 1-4: key 0 is changed with --key alone") }
        let master = try NTAG424Runner.key(try SecretInput.read(key, option: "--key", prompt: "NTAG 424 key 0 (hex)"), option: "--key")
        let new = try NTAG424Runner.key(
            try SecretInput.read(newKey, option: "--new-key", prompt: "new key \(change) (hex)"), option: "--new-key")
        let old =
            try SecretInput.readIfGiven(oldKey, option: "--old-key", prompt: "current key \(change) (hex)").map { text throws in
                try NTAG424Runner.key(text, option: "--old-key")
            } ?? (change == 0 ? master : [UInt8](repeating: 0, count: 16))
        let change = self.change
        let version = newVersion
        try await NTAG424Runner.run(readerOptions, json: false) { client in
            try await client.authenticate(keyNumber: 0, key: master)
            try await client.changeKey(change, to: new, version: version, oldKey: old)
        }
        Output.line("key \(change) changed (version \(version))")
    }
}
