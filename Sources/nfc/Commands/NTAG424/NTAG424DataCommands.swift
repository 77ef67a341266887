import ArgumentParser
import NFCBytes
import NFCDESFire
import NFCJSON

/// `nfc ntag424 read --file N [--offset O] [--length L] [--key HEX|- [--key-number K]] [--json]`
struct NTAG424ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a file with ReadData: in the clear without --key, under secure messaging with it.",
        discussion: """
            Without --key a file whose read access is free is read in the clear; an NDEF file with SDM is \
            mirrored as a phone would see it (the read counter steps). With --key the reader authenticates \
            (key 0 unless --key-number) and the file's own communication mode applies; an SDM file then shows \
            its stored placeholders. Prints the bytes as hex.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keys: NTAG424KeyOptions
    @Option(name: .long, help: "The file: 1 (CC), 2 (NDEF), 3 (proprietary).")
    var file: UInt8
    @Option(name: .long, help: "The first byte to read.")
    var offset: Int = 0
    @Option(name: .long, help: "How many bytes (default: to the end of the file).")
    var length: Int?
    @Flag(name: .long, help: "Print JSON: {\"file\", \"offset\", \"data\"}.")
    var json = false

    func run() async throws {
        let file = try NTAG424Runner.file(self.file)
        guard offset >= 0, (length ?? 0) >= 0 else { throw CLIError(.usage, "--offset and --length are not negative") }
        let key = try keys.optional("NTAG 424 key (hex)")
        let number = try keys.number(or: 0)
        let data = try await NTAG424Runner.run(readerOptions, json: json) { client in
            if let key { try await client.authenticate(keyNumber: number, key: key) }
            return try await client.read(file: file, offset: offset, length: length)
        }
        if json {
            Output.line(
                JSONValue.object([("file", .int(Int64(file))), ("offset", .int(Int64(offset))), ("data", .string(Hex.encode(data)))])
                    .serialized(
                        pretty: true))
        } else {
            Output.line(Hex.encode(data, uppercase: true))
        }
    }
}

/// `nfc ntag424 write --file N --hex HEX [--offset O] [--key HEX|- [--key-number K]]`
struct NTAG424WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write bytes into a file with WriteData, in the clear or under secure messaging with --key.",
        discussion: """
            Data goes in parts of at most 128 bytes, each of which the chip writes entirely or not at all. \
            With --key the reader authenticates (key 0 unless --key-number) and the file's communication \
            mode applies.
            """)

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var keys: NTAG424KeyOptions
    @Option(name: .long, help: "The file: 1 (CC), 2 (NDEF), 3 (proprietary).")
    var file: UInt8
    @Option(name: .long, help: "The bytes to write, as hex.")
    var hex: String
    @Option(name: .long, help: "Where the bytes go in the file.")
    var offset: Int = 0

    func run() async throws {
        let file = try NTAG424Runner.file(self.file)
        let data = try Input.hex(hex, what: "--hex")
        guard !data.isEmpty else { throw CLIError(.usage, "--hex holds no bytes") }
        guard offset >= 0 else { throw CLIError(.usage, "--offset is not negative") }
        let key = try keys.optional("NTAG 424 key (hex)")
        let number = try keys.number(or: 0)
        try await NTAG424Runner.run(readerOptions, json: false) { client in
            if let key { try await client.authenticate(keyNumber: number, key: key) }
            try await client.write(data, file: file, offset: offset)
        }
        Output.line("wrote \(data.count) bytes to file \(file) at \(offset)")
    }
}
