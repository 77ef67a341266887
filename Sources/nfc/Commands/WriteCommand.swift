import ArgumentParser
import NDEF
import NFCBytes
import NFCSimulator
import NFCTags

/// `nfc write [--reader R] (--uri U | --text T [--lang L] | --mime TYPE --file F | --external T --hex H | --json F | --hex MESSAGE)... [--stats]`
struct WriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write an NDEF message to the tag.",
        discussion: """
            Records are given as for nfc ndef encode (--uri, --text [--lang], --mime TYPE --file F|--hex H, \
            --external DOMAIN:TYPE --hex H|--file F), or the whole message as JSON (--json FILE) or as \
            encoded bytes (--hex MESSAGE, without a --mime or --external before it).
            """
    )

    @OptionGroup var readerOptions: ReaderOptions
    @OptionGroup var records: RecordOptions
    @Option(name: .long, help: "The message as JSON (docs/ndef-json.md) from this file (- for standard input).")
    var json: String?

    var hasRecords: Bool { records.hasRecords }

    func validate() throws {
        let rawMessage = !hasRecords && !records.hex.isEmpty
        let modes = [hasRecords, json != nil, rawMessage].filter { $0 }.count
        if modes == 0 { throw ValidationError("give records (--uri, --text, --mime, --external), --json FILE, or --hex MESSAGE") }
        if modes > 1 { throw ValidationError("records, --json and --hex MESSAGE are alternatives") }
        if rawMessage && records.hex.count > 1 { throw ValidationError("give the encoded message in one --hex") }
    }

    func encodedMessage() throws -> [UInt8] {
        if let json {
            let bytes = json == "-" ? Input.readStandardInput() : try Input.readFile(json)
            return try encode(NDEFJSONFile.message(bytes, source: json == "-" ? "standard input" : json))
        }
        if !hasRecords, let hex = records.hex.first {
            let bytes = try Input.hex(hex, what: "--hex")
            try NDEFVerification.verify(bytes)
            return bytes
        }
        let specs = try RecordArguments.specs(from: Invocation.arguments)
        return try encode(NDEFMessage(records: try RecordArguments.records(from: specs)))
    }

    private func encode(_ message: NDEFMessage) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            throw CLIError(.badInput, "cannot encode: \(error)")
        }
        try NDEFVerification.verify(bytes)
        return bytes
    }

    func run() async throws {
        let message = try encodedMessage()
        _ = try await TagSession.run(readerOptions, access: .modify) { connection, engine in
            try await engine.writeNDEF(message, on: connection)
        }
        Output.line("wrote \(message.count) bytes")
    }
}
