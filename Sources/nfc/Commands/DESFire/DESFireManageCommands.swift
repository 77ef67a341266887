import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc desfire create-app --aid AID [--keys N] [--settings HEX] [--iso-id HEX [--df-name HEX]] [--key HEX|-]`
struct DESFireCreateAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-app",
        abstract: "Create an application of AES, DES/2K3DES or 3K3DES keys (all zero at version 0, or the card's default key).",
        discussion: """
            --key is the PICC master key, needed when the PICC's settings do not allow free creation. \
            --settings is the application's key settings byte (0F: master key changeable, free listing, free \
            file creation, settings changeable; 09 keeps listing and creation to the master key). --iso-id \
            and --df-name give the application ISO access (a SELECT by DF name). --key-type picks the keys' \
            type for good: aes (default), des (DES and 2K3DES keys) or 3k3des.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The new application's AID, six hex digits.")
    var aid: String
    @Option(name: .long, help: "How many keys, 1-14.")
    var keys: Int = 1
    @Option(name: .customLong("key-type"), help: "The keys' type: aes, des (DES and 2K3DES) or 3k3des.")
    var keyType: String = "aes"
    @Option(name: .long, help: "The key settings byte, as hex.")
    var settings: String = "0F"
    @Option(name: .customLong("iso-id"), help: "An ISO DF identifier, four hex digits (E110).")
    var isoID: String?
    @Option(name: .customLong("df-name"), help: "An ISO DF name, 1-16 bytes as hex (needs --iso-id).")
    var dfName: String?
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input).")
    var key: String?

    func run() async throws {
        guard let aid = DESFireAID(hex: aid), aid != .picc else { throw CLIError(.usage, "--aid takes six hex digits other than 000000") }
        let type = try DESFireRunner.keyType(keyType, option: "--key-type")
        let settingsBytes = try Input.hex(settings, what: "--settings")
        guard settingsBytes.count == 1 else { throw CLIError(.usage, "--settings is one byte, as two hex digits") }
        let iso = try isoID.map { try DESFireCreateFileCommand.isoIdentifier($0) }
        let name = try dfName.map { try Input.hex($0, what: "--df-name") }
        guard (1...14).contains(keys) else { throw CLIError(.usage, "--keys is 1-14, not \(keys)") }
        try await DESFireRunner.run(readerOptions, aid: .picc, credentials: try DESFireRunner.piccKey(key), json: false) { client in
            do {
                try await client.createApplication(
                    aid, keySettings: settingsBytes[0], keyCount: keys, keyType: type, isoFileIdentifier: iso, dfName: name)
            } catch let error as DESFireError where error.code == .invalidArgument {
                throw CLIError(.usage, error.reason)
            }
        }
        Output.line(
            "created application \(aid) with \(keys) \(type == .aes ? "AES" : type == .des ? "DES" : "3K3DES") key\(keys == 1 ? "" : "s")")
    }
}

/// `nfc desfire delete-app --aid AID --key HEX|-`
struct DESFireDeleteAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-app",
        abstract: "Delete an application and its files, under the PICC master key (--key).")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The application's AID, six hex digits.")
    var aid: String
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?

    func run() async throws {
        guard let aid = DESFireAID(hex: aid), aid != .picc else { throw CLIError(.usage, "--aid takes six hex digits other than 000000") }
        let secret = try SecretInput.read(key, option: "--key", prompt: "PICC master key (hex)")
        let credentials = (UInt8(0), try DESFireRunner.key(secret, option: "--key"))
        try await DESFireRunner.run(readerOptions, aid: .picc, credentials: credentials, json: false) { client in
            try await client.deleteApplication(aid)
        }
        Output.line("deleted application \(aid)")
    }
}

/// `nfc desfire format-picc --key HEX|-`
struct DESFireFormatPICCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format-picc",
        abstract: "Delete every application and file (FormatPICC), under the PICC master key (--key). This cannot be undone.")

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?

    func run() async throws {
        let secret = try SecretInput.read(key, option: "--key", prompt: "PICC master key (hex)")
        let credentials = (UInt8(0), try DESFireRunner.key(secret, option: "--key"))
        let free = try await DESFireRunner.run(readerOptions, aid: .picc, credentials: credentials, json: false) { client in
            try await client.formatPICC()
            return try await client.freeMemory()
        }
        Output.line("formatted: no applications, \(free) bytes free")
    }
}

/// `nfc desfire set-config [--random-id] [--disable-format] [--default-key HEX|- [--default-key-version V]] [--ats HEX] --key HEX|- [--yes] [--json]`
struct DESFireSetConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-config",
        abstract: "Set the random ID, FormatPICC, the default key or the ATS (SetConfiguration), under the PICC master key.",
        discussion: """
            --random-id: from the next tap the card answers anticollision with a random 4-byte ID \
            (08 xx xx xx), new at every tap, and GetVersion hides the UID; only GetCardUID, after \
            authentication (nfc desfire info --key), gives the real one. --disable-format: FormatPICC \
            is refused from then on. Neither can be turned off again on a real card: both ask for \
            confirmation on a terminal; --yes confirms beforehand. --default-key: the key (8, 16 or 24 \
            bytes; - for standard input) every key of an application created from then on starts as, \
            with --default-key-version. --ats: the ATS (TL first, up to 20 bytes) the card answers RATS \
            with from the next tap; one announcing frames or timings a reader cannot take makes the card \
            unreadable there.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .long, help: "The PICC master key, 8, 16 or 24 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?
    @Flag(name: .customLong("random-id"), help: "Answer anticollision with a random ID from now on.")
    var randomID = false
    @Flag(name: .customLong("disable-format"), help: "Refuse FormatPICC from now on.")
    var disableFormat = false
    @Option(
        name: .customLong("default-key"), help: "The key new applications' keys start as, 8, 16 or 24 bytes as hex (- for standard input).")
    var defaultKey: String?
    @Option(name: .customLong("default-key-version"), help: "The default key's version, 0-255 (default 0).")
    var defaultKeyVersion: UInt8?
    @Option(name: .long, help: "The ATS to answer RATS with, TL first, as hex (an EV1 answers 067577810280).")
    var ats: String?
    @Flag(name: .long, help: "Confirm the irreversible change without asking.")
    var yes = false
    @Flag(
        name: .long,
        help: "Print JSON: {\"randomID\", \"formatDisabled\", \"defaultKeySet\", \"ats\", \"uid\"} (uid: the real UID, GetCardUID).")
    var json = false

    func validate() throws {
        if !randomID && !disableFormat && defaultKey == nil && ats == nil {
            throw ValidationError("give --random-id, --disable-format, --default-key or --ats")
        }
        if defaultKeyVersion != nil && defaultKey == nil { throw ValidationError("--default-key-version goes with --default-key") }
    }

    func run() async throws {
        var configuration: DESFirePICCConfiguration = []
        if randomID { configuration.insert(.randomID) }
        if disableFormat { configuration.insert(.formatDisabled) }
        let atsBytes = try ats.map { text throws -> [UInt8] in
            let bytes = try Input.hex(text, what: "--ats")
            guard bytes.count >= 2, bytes.count <= 20, Int(bytes[0]) == bytes.count else {
                throw CLIError(.usage, "--ats takes an ATS of 2 to 20 bytes whose first byte (TL) is its length; \(text) is not one")
            }
            return bytes
        }
        let what = [randomID ? "turn on the random ID" : nil, disableFormat ? "disable FormatPICC" : nil].compactMap { $0 }
        if !what.isEmpty { try Confirmation.require(yes, "Permanently \(what.joined(separator: " and ")) on this DESFire?") }
        let secret = try SecretInput.read(key, option: "--key", prompt: "PICC master key (hex)")
        let credentials = (UInt8(0), try DESFireRunner.key(secret, option: "--key"))
        let newDefault = try SecretInput.readIfGiven(defaultKey, option: "--default-key", prompt: "Default key (hex)").map {
            try DESFireRunner.key($0, option: "--default-key")
        }
        let uid = try await DESFireRunner.run(readerOptions, aid: .picc, credentials: credentials, json: json) { client in
            if !configuration.isEmpty { try await client.setPICCConfiguration(configuration) }
            if let newDefault { try await client.setDefaultKey(newDefault, version: defaultKeyVersion ?? 0) }
            if let atsBytes { try await client.setATS(atsBytes) }
            return try await client.cardUID()
        }
        let uidText = Hex.encode(uid, uppercase: true)
        if json {
            Output.line(
                JSONValue.object([
                    ("randomID", .bool(randomID)), ("formatDisabled", .bool(disableFormat)), ("defaultKeySet", .bool(newDefault != nil)),
                    ("ats", atsBytes.map { .string(Hex.encode($0, uppercase: true)) } ?? .null), ("uid", .string(uidText)),
                ]).serialized(pretty: true))
            return
        }
        if randomID {
            Output.line("random ID on: from the next tap the card answers with 08 xx xx xx; its UID stays \(uidText) (GetCardUID)")
        }
        if disableFormat { Output.line("FormatPICC disabled") }
        if newDefault != nil { Output.line("default key set (version \(defaultKeyVersion ?? 0)): new applications' keys start as it") }
        if let atsBytes { Output.line("ATS \(Hex.encode(atsBytes, uppercase: true)) from the next tap") }
    }
}

/// `nfc desfire change-key [--aid AID] --change N --new-key HEX|- [--old-key HEX] [--new-version V] --key HEX|- [--key-number K]`
struct DESFireChangeKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-key",
        abstract: "Change a key of an application (or the PICC master key), authenticated with --key.",
        discussion: """
            Which key may change which is the application's key settings' rule (by default the master key \
            changes every key). Changing a key other than the one authenticated needs its current value \
            (--old-key, default all zero). --new-key - reads the new key from standard input. At the PICC \
            level --new-key-type sets the master key's type (des, 3k3des or aes; by default a 24-byte key is \
            3k3des, an 8-byte one des, and a 16-byte one keeps the session key's type); DES-family keys keep \
            --new-version in their parity bits.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var target: DESFireTargetOptions
    @Option(name: .long, help: "The key to change, 0-13.")
    var change: UInt8
    @Option(name: .customLong("new-key"), help: "The new key, 8, 16 or 24 bytes as hex (- for standard input).")
    var newKey: String?
    @Option(name: .customLong("old-key"), help: "The key's current value, when it is not the authenticated one (default zero).")
    var oldKey: String?
    @Option(name: .customLong("new-version"), help: "The new key's version, 0-255.")
    var newVersion: UInt8 = 0
    @Option(name: .customLong("new-key-type"), help: "The new PICC master key's type: des, 3k3des or aes.")
    var newKeyType: String?

    func run() async throws {
        guard change <= 13 else { throw CLIError(.usage, "--change is 0-13, not \(change)") }
        guard !(target.key == "-" && newKey == "-") else {
            throw CLIError(.usage, "--key - and --new-key - both read standard input: give one of them on the command line")
        }
        let credentials = try target.credentials(required: true)
        let new = try DESFireRunner.key(try SecretInput.read(newKey, option: "--new-key", prompt: "new key (hex)"), option: "--new-key")
        let old =
            try oldKey.map { try DESFireRunner.key($0, option: "--old-key") }
            ?? [UInt8](repeating: 0, count: new.count == 8 ? 16 : new.count)
        var type = try newKeyType.map { try DESFireRunner.keyType($0, option: "--new-key-type") }
        let aid = try target.application()
        if newKeyType != nil, aid != .picc {
            throw CLIError(.usage, "--new-key-type is for the PICC master key: an application's key type is fixed when it is created")
        }
        // At the PICC level a 24- or 8-byte key says its type; in an application the type is the application's.
        if type == nil, aid == .picc { type = new.count == 24 ? .tdes3 : new.count == 8 ? .des : nil }
        try await DESFireRunner.run(readerOptions, aid: aid, credentials: credentials, json: false) { client in
            do {
                try await client.changeKey(change, to: new, version: newVersion, oldKey: old, type: type)
            } catch let error as DESFireError where error.code == .wrongKey || error.code == .invalidArgument {
                throw CLIError(.usage, error.reason)
            }
        }
        Output.line("changed key \(change) (version \(newVersion))")
    }
}
