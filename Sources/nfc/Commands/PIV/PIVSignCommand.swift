import ArgumentParser
import Crypto
import NFCBytes
import NFCJSON
import NFCPIV

/// `nfc piv sign SLOT --pin PIN (--data FILE | --data-hex H) [-o FILE [--force]] [--json]`.
struct PIVSignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign data with a slot's P-256 key (ECDSA over SHA-256) and print the DER signature in hex.",
        discussion: "The data is hashed with SHA-256 here; the card signs the digest. Slot 9e needs no PIN."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Argument(help: "The slot: 9a, 9c, 9d or 9e.")
    var slot: String
    @Option(name: .long, help: "The PIV PIN (not needed for slot 9e).")
    var pin: String?
    @Option(name: .long, help: "Sign the contents of this file (- for standard input).")
    var data: String?
    @Option(name: .customLong("data-hex"), help: "Sign these bytes, given in hex.")
    var dataHex: String?
    @Option(name: .shortAndLong, help: "Also write the DER signature to this file.")
    var output: String?
    @Flag(name: .long, help: "Replace an existing -o file.")
    var force = false
    /// Deprecated: `--data`.
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var file: String?
    /// Deprecated: `--data-hex`.
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var hex: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        _ = try PIVRunner.slot(slot)
        if pin == "-" && (data ?? file) == "-" { throw ValidationError("--pin - and --data - cannot both read standard input") }
        if [data, dataHex, file, hex].compactMap({ $0 }).count != 1 {
            throw ValidationError("give exactly one of --data FILE and --data-hex HEX")
        }
    }

    func run() async throws {
        let slot = try PIVRunner.slot(slot)
        try Output.checkWritable(output, force: force)
        if file != nil { Output.deprecated("--file", use: "--data FILE") }
        if hex != nil { Output.deprecated("--hex", use: "--data-hex HEX") }
        let message: [UInt8]
        if let path = data ?? file {
            message = path == "-" ? Input.readStandardInput() : try Input.readFile(path)
        } else {
            message = try Input.hex(dataHex ?? hex ?? "", what: "--data-hex")
        }
        let digest = Array(SHA256.hash(data: message))
        let pin = try SecretInput.readIfGiven(self.pin, option: "--pin", prompt: "PIN")
        let signature = try await PIVRunner.run(readerOptions, json: json) { client in
            if let pin { try await client.verifyPIN(pin) }
            return try await client.sign(slot: slot, digest: digest)
        }
        if let output { try Output.writeFile(output, signature, force: force) }
        if json {
            Output.line(
                JSONValue.object([
                    ("slot", .string(slot.hex)), ("algorithm", .string("ecdsa-with-SHA256")),
                    ("digest", .string(Hex.encode(digest))), ("signature", .string(Hex.encode(signature))),
                ]).serialized(pretty: true))
        } else {
            Output.line(Hex.encode(signature))
        }
    }
}
