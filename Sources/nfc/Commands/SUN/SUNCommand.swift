import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc sun` — Secure Unique NFC messages of NTAG 424 DNA tags.
struct SUNCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sun",
        abstract: "Check Secure Unique NFC (SUN) messages of NTAG 424 DNA tags (no tag needed).",
        subcommands: [SUNVerifyCommand.self]
    )
}

/// `nfc sun verify URL --key HEX|- [--file-key HEX|-] [--lrp] [--json]`
struct SUNVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a SUN URL: decrypt its PICC data and check its SDMMAC.",
        discussion: """
            The URL carries picc_data= (encrypted UID and read counter) or uid= and ctr= (in the clear), \
            optionally enc= (encrypted file data), and cmac= (SDMMAC), as NTAG 424 DNA mirrors them (NXP \
            AN12196). --key is the SDM meta read key, which decrypts picc_data; --file-key the SDM file read \
            key, from which the MAC and file data session keys come (the same key unless given). Give a key \
            as - to read it from standard input, or leave it out on a terminal to be asked for it. A tag in \
            LRP mode (NXP AN12304) writes 48 hex digits of picc_data (PICCRand first), which says so; with \
            plain uid= and ctr= mirrors --lrp does. Exit status 0 when the MAC is valid, 1 when it is not.
            """
    )

    @Argument(help: "The URL the tag gave (or just its query).")
    var url: String

    @Option(name: .long, help: "The SDM meta read key, 16 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?

    @Option(name: .customLong("file-key"), help: "The SDM file read key, 16 bytes as hex (- for standard input); default: --key.")
    var fileKey: String?

    @Flag(name: .long, help: "The tag is in LRP mode (only needed for plain uid= and ctr= mirrors).")
    var lrp = false

    @Flag(name: .long, help: "Print JSON: {\"valid\", \"uid\", \"counter\", \"cipher\", …}.")
    var json = false

    func run() throws {
        var message: SUNMessage
        do {
            message = try SUNMessage(url: url)
        } catch {
            throw CLIError(.badInput, "not a SUN message: \(error.reason)")
        }
        if lrp { message.cipher = .lrp }
        let metaKey = try Self.key(try SecretInput.read(key, option: "--key", prompt: "SDM meta read key (hex)"), option: "--key")
        let fileReadKey =
            try SecretInput.readIfGiven(fileKey, option: "--file-key", prompt: "SDM file read key (hex)")
            .map { text throws in try Self.key(text, option: "--file-key") } ?? metaKey
        let result: SUNVerification
        do {
            result = try message.verify(metaReadKey: metaKey, fileReadKey: fileReadKey)
        } catch {
            throw CLIError(error.code == .wrongKey ? .failure : .badInput, error.reason)
        }
        if json {
            Output.line(Self.json(result, cipher: message.cipher).serialized(pretty: true))
        } else {
            Output.line(Self.text(result) + (message.cipher == .lrp ? " (LRP)" : ""))
        }
        if !result.isValid { throw ExitCode(CLIError.Code.failure.exitStatus) }
    }

    /// A 16-byte key from hex.
    static func key(_ text: String, option: String) throws -> [UInt8] {
        let bytes = try Input.hex(text, what: option)
        guard bytes.count == 16 else {
            throw CLIError(.usage, "\(option) takes an AES-128 key: 16 bytes (32 hex digits), not \(bytes.count)")
        }
        return bytes
    }

    static func text(_ result: SUNVerification) -> String {
        var parts: [String] = []
        if let uid = result.piccData.uid { parts.append("UID \(Hex.encode(uid, uppercase: true))") }
        if let counter = result.piccData.counter { parts.append("read counter \(counter)") }
        if let data = result.fileData { parts.append("file data \(Hex.encode(data, uppercase: true))") }
        let verdict = result.isValid ? "valid" : "INVALID: the SDMMAC does not match"
        return ([verdict] + parts).joined(separator: parts.isEmpty ? "" : ", ")
    }

    static func json(_ result: SUNVerification, cipher: SUNMessage.Cipher) -> JSONValue {
        var fields: [(String, JSONValue)] = [("valid", .bool(result.isValid)), ("cipher", .string(cipher.rawValue))]
        fields.append(("uid", result.piccData.uid.map { .string(Hex.encode($0)) } ?? .null))
        fields.append(("counter", result.piccData.counter.map { .int(Int64($0)) } ?? .null))
        if let tag = result.piccData.tag { fields.append(("piccDataTag", .string(Hex.encode([tag])))) }
        if let data = result.fileData { fields.append(("fileData", .string(Hex.encode(data)))) }
        return .object(fields)
    }
}
