import ArgumentParser
import Crypto
import Foundation
import ISO7816
import NDEFJSON
import NFCBytes
import NFCFIDO
import NFCJSON
import NFCSimulator

/// `nfc fido info|register|assert`: a FIDO security key (U2F or CTAP2 over NFC) on any reader.
struct FIDOCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fido",
        abstract: "Use a FIDO security key: authenticator info, register a credential, sign an assertion, set or change the PIN, reset.",
        discussion: """
            The command acts as its own WebAuthn platform: the client data is \
            {"type":…,"challenge":<random>,"origin":"https://<rp>"} and its SHA-256 is sent. \
            CTAP2 is used unless --u2f. See docs/fido.md.
            """,
        subcommands: [
            FIDOInfoCommand.self, FIDORegisterCommand.self, FIDOAssertCommand.self, FIDOSetPINCommand.self, FIDOResetCommand.self,
        ]
    )
}

/// Options every FIDO subcommand shares.
struct FIDOOptions: ParsableArguments {
    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Use U2F (CTAP1) instead of CTAP2.")
    var u2f = false
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false
}

enum FIDOCLI {
    /// Runs `body` with a FIDO client on the reader's tag, the applet selected; FIDO errors become
    /// one-line reasons.
    static func run<T>(
        _ options: FIDOOptions, access: TagImageAccess = .modify, _ body: @escaping (FIDOClient, FIDOClient.Version) async throws -> T
    ) async throws -> T {
        let (value, stats) = try await TagSession.run(options.readerOptions, access: access, json: options.json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError("the tag is not an ISO 7816 tag (\(connection.target.technology) storage tag): it is no security key")
            }
            let client = FIDOClient(transmitter: ConnectionAPDUTransmitter(connection: connection))
            do {
                let version = try await client.select()
                return try await body(client, version)
            } catch let error as FIDOError {
                throw await pinError(error, client: client) ?? CLIError(error.description)
            } catch let error as APDUError {
                throw CLIError("APDU: \(error)")
            }
        }
        _ = stats
        return value
    }

    /// A PIN refusal in words (CTAP 2.1 §6.5.5.5: PIN_INVALID with the retries left, which
    /// authenticatorClientPIN getPINRetries reports; PIN_BLOCKED; PIN_AUTH_BLOCKED until the key
    /// is powered again), or nil for another error.
    static func pinError(_ error: FIDOError, client: FIDOClient) async -> CLIError? {
        guard let status = error.ctap2Status, let words = await pinWords(status, client: client) else { return nil }
        return CLIError(.permission, "\(words) (\(status))")
    }

    private static func pinWords(_ status: CTAP2Status, client: FIDOClient) async -> String? {
        switch status {
        case .pinInvalid:
            guard let retries = try? await client.getPINRetries() else { return "wrong PIN" }
            if retries == 0 { return "wrong PIN; no tries are left: the PIN is blocked (nfc fido reset)" }
            return "wrong PIN, \(retries) \(retries == 1 ? "try" : "tries") left"
        case .pinBlocked:
            return "the PIN is blocked: only a reset (nfc fido reset) makes the key usable again"
        case .pinAuthBlocked:
            return "three wrong PINs in a row: take the key away and present it again before the next try"
        default:
            return nil
        }
    }

    /// Client data as a platform makes it (WebAuthn §5.8.1) and its SHA-256.
    static func clientData(type: String, rp: String) -> (json: String, hash: [UInt8]) {
        var generator = SystemRandomNumberGenerator()
        let challenge = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64url = Data(challenge).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let json = "{\"type\":\"\(type)\",\"challenge\":\"\(base64url)\",\"origin\":\"https://\(rp)\",\"crossOrigin\":false}"
        return (json, sha256(Array(json.utf8)))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    /// The U2F application parameter for an RP ID: SHA-256 of the ID (as WebAuthn's appid-less
    /// U2F fallback does for the RP ID).
    static func application(_ rp: String) -> [UInt8] { sha256(Array(rp.utf8)) }

    /// The user handle for a name: the first 16 bytes of SHA-256("user:" + name), so the same
    /// name maps to the same resident credential.
    static func userHandle(_ name: String) -> [UInt8] { Array(sha256(Array("user:\(name)".utf8)).prefix(16)) }

    static func flagsText(_ flags: AuthenticatorData.Flags) -> [String] {
        var names: [String] = []
        if flags.contains(.userPresent) { names.append("UP") }
        if flags.contains(.userVerified) { names.append("UV") }
        if flags.contains(.attestedCredentialData) { names.append("AT") }
        if flags.contains(.extensionData) { names.append("ED") }
        return names
    }

    static func printJSON(_ fields: [(String, JSONValue)]) {
        Output.line(JSONValue.object(fields).serialized(pretty: true))
    }

    static func printText(_ lines: [(String, String)]) {
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines {
            Output.line(TerminalText.escape(key + ":" + String(repeating: " ", count: width - key.count + 1) + value))
        }
    }
}

/// What `register --key-file` writes and `assert --key-file` reads.
struct FIDOKeyFile: Codable {
    /// "ctap2" or "u2f".
    var protocolName: String
    var rp: String
    var user: String?
    /// Hex: the credential ID (CTAP2) or key handle (U2F).
    var credentialId: String
    /// Hex: the uncompressed P-256 point 04 || x || y.
    var publicKey: String
    var resident: Bool

    enum CodingKeys: String, CodingKey {
        case protocolName = "protocol", rp, user, credentialId, publicKey, resident
    }

    static func read(_ path: String) throws -> FIDOKeyFile {
        do {
            return try JSONDecoder().decode(FIDOKeyFile.self, from: Data(try Input.readFile(path)))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(path) is not a key file written by nfc fido register: \(error)")
        }
    }

    func write(_ path: String, force: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(self) else { throw CLIError("cannot encode the key file") }
        try Output.writeFile(path, Array(data) + [0x0A], force: force)
    }
}
