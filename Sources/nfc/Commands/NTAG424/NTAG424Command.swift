import ArgumentParser
import ISO7816
import NFCBytes
import NFCDESFire
import NFCSimulator
import NFCTransport

/// `nfc ntag424` — NXP NTAG 424 DNA: identity, files, keys and Secure Dynamic Messaging (SUN).
struct NTAG424Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ntag424",
        abstract: "Use an NTAG 424 DNA: identity and file settings, authenticated reads and writes, SUN (SDM) set-up, key changes.",
        discussion: """
            Works on any reader (sim, sim:FILE, pcsc, pcsc:NAME, pn532:PATH). Keys are AES-128, 16 bytes as hex: \
            give - to read one from standard input, or leave --key out on a terminal to be asked. A new tag's \
            keys are all zero (make one with nfc tag new ntag424). A tag switched to LRP mode (set-lrp) \
            is spoken to in LRP by every subcommand. See docs/ntag424.md.
            """,
        subcommands: [
            NTAG424InfoCommand.self, NTAG424ReadCommand.self, NTAG424WriteCommand.self, NTAG424SDMCommand.self,
            NTAG424ChangeKeyCommand.self, NTAG424SetLRPCommand.self,
        ]
    )
}

/// The key options every authenticated subcommand shares.
struct NTAG424KeyOptions: ParsableArguments {
    @Option(name: .long, help: "The key to authenticate with, 16 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?

    @Option(name: .customLong("key-number"), help: "Which key --key is: 0-4.")
    var keyNumber: UInt8?

    /// The key number given, or `fallback`; 0–4.
    func number(or fallback: UInt8) throws -> UInt8 {
        let number = keyNumber ?? fallback
        guard number <= 4 else { throw CLIError(.usage, "--key-number is 0-4, not \(number)") }
        return number
    }

    /// The key, asked for when not given (`prompt` names it).
    func required(_ prompt: String) throws -> [UInt8] {
        try NTAG424Runner.key(try SecretInput.read(key, option: "--key", prompt: prompt), option: "--key")
    }

    /// The key when given, else `nil` (no authentication).
    func optional(_ prompt: String) throws -> [UInt8]? {
        guard let text = try SecretInput.readIfGiven(key, option: "--key", prompt: prompt) else {
            if keyNumber != nil { throw CLIError(.usage, "--key-number needs --key") }
            return nil
        }
        return try NTAG424Runner.key(text, option: "--key")
    }
}

/// Runs `body` with a client on the reader's tag, the NDEF application selected; errors become
/// one-line CLI errors naming the command and the card's status.
enum NTAG424Runner {
    static func run<T>(_ options: ReaderOptions, json: Bool, _ body: (NTAG424Client) async throws -> T) async throws -> T {
        let (value, _) = try await TagSession.run(options, access: .modify, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError(
                    .notFound, "the tag is not an ISO-DEP tag (\(connection.target.technology) storage tag): not an NTAG 424 DNA")
            }
            let client = NTAG424Client(transmitter: ConnectionAPDUTransmitter(connection: connection))
            do {
                do {
                    try await client.selectApplication()
                } catch let error as DESFireError where error.status == 0x6A82 {
                    throw CLIError(.notFound, "the tag has no application D2760000850101 (SELECT answered 6A82): not an NTAG 424 DNA")
                }
                return try await body(client)
            } catch let error as DESFireError {
                let hint =
                    error.code == .authenticationError
                    ? "; check the key, or give one with --key (--key-number N for a key other than 0): nfc ntag424 info shows each file's access"
                    : ""
                throw CLIError(exitCode(error), "NTAG 424: \(error.reason)\(hint)")
            } catch let error as APDUError {
                throw CLIError("NTAG 424: \(error)")
            } catch let error as TransportError {
                throw CLIError("NTAG 424: \(error)")
            }
        }
        return value
    }

    /// A wrong key or missing rights is a permission problem (exit 4); a malformed answer bad input.
    static func exitCode(_ error: DESFireError) -> CLIError.Code {
        switch error.code {
        case .authenticationError, .permissionDenied, .authenticationFailed, .notAuthenticated, .authenticationDelay: .permission
        case .fileNotFound, .noSuchKey, .applicationNotFound: .notFound
        case .malformedResponse, .responseIntegrity: .badInput
        case .invalidArgument: .usage
        default: .failure
        }
    }

    /// A 16-byte key from hex.
    static func key(_ text: String, option: String) throws -> [UInt8] {
        let bytes = try Input.hex(text, what: option)
        guard bytes.count == 16 else {
            throw CLIError(.usage, "\(option) takes an AES-128 key: 16 bytes (32 hex digits), not \(bytes.count)")
        }
        return bytes
    }

    /// A file number 1–3.
    static func file(_ number: UInt8) throws -> UInt8 {
        guard (1...3).contains(number) else { throw CLIError(.usage, "--file is 1 (CC), 2 (NDEF) or 3 (proprietary), not \(number)") }
        return number
    }
}
