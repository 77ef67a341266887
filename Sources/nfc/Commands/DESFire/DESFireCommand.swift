import ArgumentParser
import ISO7816
import NFCBytes
import NFCDESFire
import NFCJSON
import NFCTransport

/// `nfc desfire` — NXP MIFARE DESFire EV1/EV2/EV3: the card, its applications, files, values,
/// records and keys.
struct DESFireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desfire",
        abstract: "Use a MIFARE DESFire: card and applications, files of every kind, values, records and keys.",
        discussion: """
            Works on any reader (sim, sim:FILE, pcsc, pcsc:NAME, pn532:PATH). Applications are named by their \
            AID, six hex digits (--aid F12345); without --aid a command works at the PICC level. Keys are hex: \
            DES 8 bytes, AES-128 or 2K3DES 16, 3K3DES 24; give - to read one from standard input, or leave --key \
            out on a terminal to be asked (commands that need no key skip it). With --key the reader authenticates \
            as the level's key type asks: AuthenticateEV2First for AES keys (AuthenticateAES on an EV1), \
            AuthenticateISO for DES, 2K3DES and 3K3DES keys; the card's secure messaging applies. A new card's \
            PICC master key is DES, all zero. Writes to backup, \
            value and record files are committed in one transaction. A blank card: nfc tag new desfire-ev3 \
            --blank; NDEF on it: nfc format. See docs/desfire.md.
            """,
        subcommands: [
            DESFireInfoCommand.self, DESFireAppsCommand.self, DESFireFilesCommand.self, DESFireReadCommand.self,
            DESFireWriteCommand.self, DESFireValueCommand.self, DESFireCreateAppCommand.self, DESFireDeleteAppCommand.self,
            DESFireCreateFileCommand.self, DESFireDeleteFileCommand.self, DESFireChangeKeyCommand.self, DESFireFormatPICCCommand.self,
            DESFireSetConfigCommand.self,
        ]
    )
}

/// Which level a command works at and the key it authenticates with there.
struct DESFireTargetOptions: ParsableArguments {
    @Option(name: .long, help: "The application, six hex digits (default: the PICC level).")
    var aid: String?

    @Option(name: .long, help: "The key to authenticate with, 8, 16 or 24 bytes as hex (- for standard input; asked for on a terminal).")
    var key: String?

    @Option(name: .customLong("key-number"), help: "Which key --key is: 0-13 (default 0, the master key).")
    var keyNumber: UInt8?

    /// The application named, or the PICC level.
    func application() throws -> DESFireAID {
        guard let aid else { return .picc }
        guard let parsed = DESFireAID(hex: aid) else { throw CLIError(.usage, "--aid takes six hex digits (F12345), not \(aid)") }
        return parsed
    }

    /// The application named; `what` says why one is needed.
    func requiredApplication(_ what: String) throws -> DESFireAID {
        let aid = try application()
        guard aid != .picc else { throw CLIError(.usage, "\(what) needs --aid: files live in applications") }
        return aid
    }

    /// The key number, 0–13.
    func number() throws -> UInt8 {
        let number = keyNumber ?? 0
        guard number <= 13 else { throw CLIError(.usage, "--key-number is 0-13, not \(number)") }
        return number
    }

    /// The key when given (asked for on a terminal only when `required`), with its number.
    func credentials(required: Bool) throws -> (UInt8, [UInt8])? {
        let text =
            required
            ? try SecretInput.read(key, option: "--key", prompt: "DESFire key (hex)")
            : try SecretInput.readIfGiven(key, option: "--key", prompt: "DESFire key (hex)")
        guard let text else {
            if keyNumber != nil { throw CLIError(.usage, "--key-number needs --key") }
            return nil
        }
        return (try number(), try DESFireRunner.key(text, option: "--key"))
    }
}

/// Runs `body` with a client on the reader's card at the level `target` names, authenticated when
/// it carries a key; DESFire refusals become one-line CLI errors naming the command and status.
enum DESFireRunner {
    static func run<T>(
        _ options: ReaderOptions, _ target: DESFireTargetOptions, keyRequired: Bool = false, json: Bool,
        _ body: (DESFireClient) async throws -> T
    ) async throws -> T {
        try await run(options, aid: try target.application(), credentials: try target.credentials(required: keyRequired), json: json, body)
    }

    /// The same with the level and the key given directly.
    static func run<T>(
        _ options: ReaderOptions, aid: DESFireAID, credentials: (UInt8, [UInt8])?, json: Bool, _ body: (DESFireClient) async throws -> T
    ) async throws -> T {
        let (value, _) = try await TagSession.run(options, access: .modify, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError(.notFound, "the tag is not an ISO-DEP card (\(connection.target.technology) storage tag): not a DESFire")
            }
            let client = DESFireClient(transmitter: ConnectionAPDUTransmitter(connection: connection))
            do {
                try await client.selectApplication(aid)
                if let (number, key) = credentials { try await client.authenticateAsKeyTypeAsks(keyNumber: number, key: key) }
                return try await body(client)
            } catch let error as DESFireError {
                throw CLIError(NTAG424Runner.exitCode(error), "DESFire: \(error.reason)\(hint(error, aid: aid))")
            } catch let error as APDUError {
                throw CLIError("DESFire: \(error)")
            } catch let error as TransportError {
                throw CLIError("DESFire: \(error)")
            }
        }
        return value
    }

    /// What to try next after a refusal.
    static func hint(_ error: DESFireError, aid: DESFireAID) -> String {
        switch error.code {
        case .authenticationError, .notAuthenticated:
            "; give the key that grants it with --key (--key-number N for a key other than the master key)"
        case .illegalCommand where error.reason.contains("AuthenticateEV2First"):
            "; this card has no EV2 authentication (a DESFire EV1): only free access works here"
        case .applicationNotFound: "; nfc desfire apps lists the card's applications"
        case .cardStatus where error.status.map({ $0 >> 8 != 0x91 }) ?? false: "; the card does not speak DESFire's native commands"
        default: ""
        }
    }

    /// A DESFire key as hex: 8 bytes (DES), 16 (AES-128 or 2K3DES) or 24 (3K3DES).
    static func key(_ text: String, option: String) throws -> [UInt8] {
        let bytes = try Input.hex(text, what: option)
        guard [8, 16, 24].contains(bytes.count) else {
            throw CLIError(.usage, "\(option) takes a key of 8 (DES), 16 (AES, 2K3DES) or 24 bytes (3K3DES), not \(bytes.count)")
        }
        return bytes
    }

    /// A key type named on the command line.
    static func keyType(_ text: String, option: String) throws -> DESFireKeyType {
        guard let type = DESFireKeyType(rawValue: text.lowercased() == "2k3des" ? "des" : text.lowercased()) else {
            throw CLIError(.usage, "\(option) is des, 2k3des, 3k3des or aes, not \(text)")
        }
        return type
    }

    /// The PICC master key of `--key` when given.
    static func piccKey(_ text: String?) throws -> (UInt8, [UInt8])? {
        guard let text = try SecretInput.readIfGiven(text, option: "--key", prompt: "PICC master key (hex)") else { return nil }
        return (0, try DESFireRunner.key(text, option: "--key"))
    }

    /// A file number, 0–31.
    static func file(_ number: UInt8) throws -> UInt8 {
        guard number <= 31 else { throw CLIError(.usage, "--file is 0-31, not \(number)") }
        return number
    }

    /// An access condition from `0`–`13`, `free` or `never`.
    static func access(_ text: String, option: String) throws -> DESFireAccess {
        guard let access = DESFireAccess(text: text) else {
            throw CLIError(.usage, "\(option) takes a key number 0-13, free or never; not \(text)")
        }
        return access
    }

    /// An access condition as JSON: the key number, `"free"` or `"never"`.
    static func json(_ access: DESFireAccess) -> JSONValue {
        switch access {
        case .key(let number): .int(Int64(number))
        case .free: .string("free")
        case .never: .string("never")
        }
    }
}
