import ArgumentParser
import Foundation
import ISO7816
import NDEFJSON
import NFCJSON
import NFCOATH
import NFCSimulator
import NFCTransport

/// `nfc oath` — the YubiKey OATH applet (TOTP/HOTP codes) on any reader.
struct OATHCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oath",
        abstract: "List, add, delete and calculate OATH (TOTP/HOTP) credentials on a security key.",
        discussion: """
            Talks the YubiKey OATH protocol (AID A0000005272101) to the tag on --reader: a \
            security-key image in the simulator (nfc tag new security-key) or a key on a PC/SC \
            reader. When the application is protected by an access code, give --password. \
            The JSON forms are documented in docs/oath.md.
            """,
        subcommands: [
            OATHListCommand.self, OATHCodeCommand.self, OATHAddCommand.self, OATHDeleteCommand.self,
            OATHPasswordCommand.self, OATHResetCommand.self,
        ]
    )
}

/// The options every `nfc oath` command shares.
struct OATHOptions: ParsableArguments {
    @OptionGroup var readerOptions: ReaderOptions
    @Option(
        name: .long,
        help:
            "The access code (password) of the OATH application, when one is set (- reads a line of standard input; asked for at a terminal)."
    )
    var password: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false
}

/// Opening an OATH session on the reader's tag and reporting its errors as one line.
enum OATHCLI {
    /// Selects the applet on the tag of `options`' reader, validates with the password when the
    /// applet has an access code, and runs `body`.
    static func run<T>(_ options: OATHOptions, access: TagImageAccess, _ body: @escaping (OATHSession) async throws -> T) async throws -> T
    {
        let given = try SecretInput.readIfGiven(options.password, option: "--password", prompt: "OATH access code")
        do {
            let (result, stats) = try await TagSession.run(options.readerOptions, access: access, json: options.json) { connection, _ in
                guard connection.target.speaksISODEP else {
                    throw CLIError(
                        "the tag is not an ISO 7816 tag (\(connection.target.technology) storage tag): it has no OATH application")
                }
                let session = try await OATHSession(transmitter: ConnectionAPDUTransmitter(connection: connection))
                if await session.selection.hasAccessCode {
                    // Not given: asked for at a terminal (ykman's way), else the error says to give it.
                    let asked = given == nil && isatty(STDIN_FILENO) == 1
                    guard let password = asked ? try SecretInput.read(nil, option: "--password", prompt: "OATH access code") : given else {
                        throw OATHError.accessCodeRequired
                    }
                    do {
                        try await session.validate(password: password)
                    } catch let error as OATHError where error.oathStatus == .wrongSyntax && error.operation == .validate {
                        throw CLIError("wrong password for the OATH application")
                    }
                }
                return try await body(session)
            }
            _ = stats
            return result
        } catch let error as OATHError {
            if error.oathStatus == .applicationNotFound && error.operation == .select {
                throw CLIError(.notFound, "the tag has no OATH application (SELECT A0000005272101 failed)")
            } else if error.oathStatus == .authenticationRequired, let operation = error.operation {
                throw CLIError("\(operation): the OATH application is protected by an access code; give --password")
            } else if error.code == .accessCodeRequired {
                throw CLIError("the OATH application is protected by an access code; give --password")
            }
            throw CLIError(error.description)
        } catch let error as APDUError {
            throw CLIError("OATH: \(error)")
        } catch let error as TransportError {
            throw CLIError("OATH: \(error)")
        }
    }

    /// The one credential `query` names: its stored name, `issuer:account`, or the account alone.
    static func find(_ query: String, in credentials: [OATHCredential]) throws -> OATHCredential {
        if let exact = credentials.first(where: { $0.id == Array(query.utf8) }) { return exact }
        let matches = credentials.filter { $0.name.description == query || $0.name.account == query }
        if matches.count == 1, let match = matches.first { return match }
        if matches.isEmpty { throw CLIError(.notFound, "no OATH credential named \(query)") }
        throw CLIError(
            "\(matches.count) OATH credentials match \(query): \(matches.map { String(decoding: $0.id, as: UTF8.self) }.joined(separator: ", ")); give the full name"
        )
    }

    /// A credential in the JSON form (docs/oath.md).
    static func json(_ credential: OATHCredential) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("name", .string(String(decoding: credential.id, as: UTF8.self))),
            ("issuer", credential.name.issuer.map { .string($0) } ?? .null),
            ("account", .string(credential.name.account)),
            ("type", .string(credential.type.description)),
        ]
        if let algorithm = credential.algorithm { fields.append(("algorithm", .string(algorithm.description))) }
        if credential.type == .totp { fields.append(("period", .int(Int64(credential.name.period)))) }
        if let touch = credential.touchRequired { fields.append(("touch", .bool(touch))) }
        return fields
    }

    static func parseAlgorithm(_ text: String) throws -> OATHAlgorithm {
        switch text.lowercased().replacingOccurrences(of: "-", with: "") {
        case "sha1": return .sha1
        case "sha256": return .sha256
        case "sha512": return .sha512
        default: throw ValidationError("--algorithm is sha1, sha256 or sha512, not \(text)")
        }
    }
}

/// `nfc oath list`
struct OATHListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the OATH credentials.")

    @OptionGroup var options: OATHOptions

    func run() async throws {
        let credentials = try await OATHCLI.run(options, access: .read) { session in try await session.list() }
        if options.json {
            Output.line(JSONValue.object([("credentials", .array(credentials.map { .object(OATHCLI.json($0)) }))]).serialized(pretty: true))
            return
        }
        if credentials.isEmpty { Output.line("no OATH credentials") }
        for credential in credentials {
            var line = "\(credential.name)  \(credential.type)"
            if let algorithm = credential.algorithm { line += " \(algorithm)" }
            if credential.type == .totp { line += " \(credential.name.period)s" }
            Output.line(TerminalText.escape(line))
        }
    }
}

/// `nfc oath code [NAME] [--time T]`
struct OATHCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Calculate codes: one credential's, or every TOTP code.",
        discussion: """
            Without NAME, every TOTP credential's code (CALCULATE ALL); HOTP credentials are \
            listed without a code, since calculating one advances its counter — name it to get one. \
            NAME is the stored name, issuer:account, or the account alone.
            """
    )

    @OptionGroup var options: OATHOptions
    @Argument(help: "The credential.")
    var name: String?
    @Option(name: .long, help: "The Unix time for TOTP codes (default now).")
    var time: Int64?

    func run() async throws {
        let time = time ?? Int64(Date().timeIntervalSince1970)
        let name = name
        let rows: [OATHCalculation] = try await OATHCLI.run(options, access: .modify) { session in
            if let name {
                let credential = try OATHCLI.find(name, in: try await session.list())
                return [OATHCalculation(credential: credential, code: try await session.calculate(credential, time: time))]
            }
            var rows = try await session.calculateAll(time: time)
            // Touch credentials: CALCULATE asks for the touch (a real key waits for it).
            for index in rows.indices where rows[index].credential.touchRequired == true {
                rows[index].code = try await session.calculate(rows[index].credential, time: time)
            }
            return rows
        }
        if options.json {
            let codes: [JSONValue] = rows.map { row in
                var fields = OATHCLI.json(row.credential)
                fields.append(("code", row.code.map { .string($0.value) } ?? .null))
                if let from = row.code?.validFrom { fields.append(("validFrom", .int(from))) }
                if let to = row.code?.validTo { fields.append(("validTo", .int(to))) }
                return .object(fields)
            }
            Output.line(JSONValue.object([("time", .int(time)), ("codes", .array(codes))]).serialized(pretty: true))
            return
        }
        for row in rows {
            Output.line(
                TerminalText.escape("\(row.credential.name)  \(row.code?.value ?? "(\(row.credential.type): name it to calculate)")"))
        }
    }
}

/// `nfc oath add NAME --secret BASE32 …`
struct OATHAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add (or replace) a credential.",
        discussion: "NAME is the account, or issuer:account when --issuer is not given."
    )

    @OptionGroup var options: OATHOptions
    @Argument(help: "The account name.")
    var name: String
    @Option(name: .long, help: "The shared secret in Base32 (RFC 4648), as otpauth:// URIs carry it.")
    var secret: String
    @Flag(name: .long, help: "Time based (RFC 6238; the default).")
    var totp = false
    @Flag(name: .long, help: "Counter based (RFC 4226).")
    var hotp = false
    @Option(name: .long, help: "Digits of each code: 6, 7 or 8.")
    var digits: Int = 6
    @Option(name: .long, help: "TOTP time step in seconds.")
    var period: Int = 30
    @Option(name: .long, help: "sha1, sha256 or sha512.")
    var algorithm: String = "sha1"
    @Option(name: .long, help: "The issuer (service) name.")
    var issuer: String?
    @Option(name: .long, help: "HOTP: the initial counter.")
    var counter: UInt32 = 0
    @Flag(name: .long, help: "Require a touch of the key for each code.")
    var touch = false

    func validate() throws {
        if totp && hotp { throw ValidationError("give --totp or --hotp, not both") }
        if !(6...8).contains(digits) { throw ValidationError("--digits is 6, 7 or 8") }
        if period < 1 { throw ValidationError("--period is at least 1") }
        _ = try OATHCLI.parseAlgorithm(algorithm)
    }

    func run() async throws {
        let type: OATHType = hotp ? .hotp : .totp
        var credentialName = OATHCredentialName(issuer: issuer, account: name, period: period)
        if issuer == nil, let colon = name.firstIndex(of: ":"), colon != name.startIndex, name.index(after: colon) < name.endIndex {
            credentialName = OATHCredentialName(
                issuer: String(name[..<colon]), account: String(name[name.index(after: colon)...]), period: period)
        }
        let secretBytes: [UInt8]
        do {
            secretBytes = try Base32.decode(secret)
        } catch {
            throw CLIError("--secret is not Base32: \(error)")
        }
        guard !secretBytes.isEmpty else { throw CLIError("--secret is empty") }
        let data = OATHCredentialData(
            name: credentialName, type: type, algorithm: try OATHCLI.parseAlgorithm(algorithm), secret: secretBytes,
            digits: digits, counter: counter, touchRequired: touch
        )
        let credential = try await OATHCLI.run(options, access: .modify) { session in try await session.put(data) }
        if options.json {
            Output.line(JSONValue.object([("added", .object(OATHCLI.json(credential)))]).serialized(pretty: true))
        } else {
            Output.line(
                TerminalText.escape(
                    "added \(credential.name) (\(type), \(data.algorithm), \(digits) digits\(type == .totp ? ", \(period)s" : ""))"))
        }
    }
}

/// `nfc oath delete NAME`
struct OATHDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a credential.")

    @OptionGroup var options: OATHOptions
    @Argument(help: "The stored name, issuer:account, or the account alone.")
    var name: String

    func run() async throws {
        let name = name
        let credential = try await OATHCLI.run(options, access: .modify) { session in
            let credential = try OATHCLI.find(name, in: try await session.list())
            try await session.delete(credential.id)
            return credential
        }
        if options.json {
            Output.line(JSONValue.object([("deleted", .object(OATHCLI.json(credential)))]).serialized(pretty: true))
        } else {
            Output.line(TerminalText.escape("deleted \(credential.name)"))
        }
    }
}

/// `nfc oath password (--new P | --clear)`
struct OATHPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Set, change or remove the access code of the OATH application.",
        discussion: "Give the current code with --password when one is set."
    )

    @OptionGroup var options: OATHOptions
    @Option(name: .customLong("new"), help: "The new access code (- reads a line of standard input after --password's).")
    var newPassword: String?
    @Flag(name: .long, help: "Remove the access code.")
    var clear = false

    func validate() throws {
        if (newPassword == nil) == !clear { throw ValidationError("give --new PASSWORD or --clear") }
        if let newPassword, newPassword.isEmpty { throw ValidationError("--new cannot be empty; use --clear") }
    }

    func run() async throws {
        // The current code first, then the new one: two `-` take standard input's lines in that order.
        var options = options
        options.password = try SecretInput.readIfGiven(options.password, option: "--password", prompt: "OATH access code")
        let newPassword = try SecretInput.readIfGiven(newPassword, option: "--new", prompt: "New OATH access code")
        try await OATHCLI.run(options, access: .modify) { session in
            if let newPassword {
                try await session.setAccessCode(password: newPassword)
            } else {
                try await session.clearAccessCode()
            }
        }
        let state = newPassword == nil ? "removed" : "set"
        if options.json {
            Output.line(JSONValue.object([("accessCode", .string(state))]).serialized(pretty: true))
        } else {
            Output.line("access code \(state)")
        }
    }
}

/// `nfc oath reset`
struct OATHResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Delete every credential and the access code (needs no password)."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func run() async throws {
        _ = try await TagSession.run(readerOptions, access: .modify, json: json) { connection, _ in
            guard connection.target.speaksISODEP else { throw CLIError("the tag is not an ISO 7816 tag: it has no OATH application") }
            do {
                let session = try await OATHSession(transmitter: ConnectionAPDUTransmitter(connection: connection))
                try await session.reset()
            } catch let error as OATHError {
                throw CLIError(error.description)
            }
        }
        Output.line(json ? JSONValue.object([("reset", .bool(true))]).serialized(pretty: true) : "OATH application reset")
    }
}
