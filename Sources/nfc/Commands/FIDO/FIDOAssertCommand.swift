import ArgumentParser
import Crypto
import NDEFJSON
import NFCBytes
import NFCFIDO
import NFCJSON

/// `nfc fido assert --rp ID [--credential HEX] [--public-key HEX | --key-file F] [--pin PIN] [--u2f] [--json]`
struct FIDOAssertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assert",
        abstract: "Sign in: GetAssertion (or U2F AUTHENTICATE) and verify the signature with the credential's public key."
    )

    @OptionGroup var options: FIDOOptions
    @Option(name: .long, help: "The relying party ID (default: the key file's).")
    var rp: String?
    @Option(name: .long, help: "The credential ID (key handle) in hex (default: the key file's; CTAP2 without one: resident credentials).")
    var credential: String?
    @Option(name: .customLong("public-key"), help: "The credential's public key in hex (04 || x || y).")
    var publicKey: String?
    @Option(name: .customLong("key-file"), help: "A key file written by nfc fido register.")
    var keyFile: String?
    @Option(name: .long, help: "The PIN, for user verification (CTAP2; - for a line of standard input).")
    var pin: String?

    func validate() throws {
        if keyFile == nil && publicKey == nil {
            throw ValidationError("give --public-key or --key-file: the signature is verified with the credential's public key")
        }
        if keyFile == nil && rp == nil { throw ValidationError("give --rp (or a --key-file that names it)") }
        if options.u2f && pin != nil { throw ValidationError("--pin is a CTAP2 feature; leave out --u2f") }
    }

    func run() async throws {
        let file = try keyFile.map(FIDOKeyFile.read)
        let u2f = options.u2f || file?.protocolName == "u2f"
        guard let rp = rp ?? file?.rp else { throw CLIError("no relying party: give --rp") }
        let credentialID = try (credential ?? file?.credentialId).map { try Input.hex($0, what: "credential ID") }
        guard let pointHex = publicKey ?? file?.publicKey else { throw CLIError("no public key: give --public-key") }
        let point = try Input.hex(pointHex, what: "public key")
        guard let key = try? P256.Signing.PublicKey(x963Representation: point) else {
            throw CLIError("the public key is not an uncompressed P-256 point (65 bytes, 04 || x || y)")
        }
        if u2f && credentialID == nil { throw CLIError("U2F needs the key handle: give --credential or --key-file") }
        let pin = try SecretInput.readIfGiven(self.pin, option: "--pin", prompt: "PIN")
        let result = try await FIDOCLI.run(options) {
            client, _ -> (id: [UInt8], counter: UInt32, flags: [String], signature: [UInt8], user: UserEntity?) in
            let clientData = FIDOCLI.clientData(type: "webauthn.get", rp: rp)
            if u2f, let handle = credentialID {
                let application = FIDOCLI.application(rp)
                guard let answer = try await client.u2fAuthenticate(challenge: clientData.hash, application: application, keyHandle: handle)
                else {
                    throw FIDOError.malformedResponse(field: "authenticate", reason: "no signature")
                }
                try answer.verify(publicKey: point, challenge: clientData.hash, application: application)
                return (handle, answer.counter, answer.userPresence & 1 != 0 ? ["UP"] : [], answer.signature, nil)
            }
            var token: PinUvAuthToken?
            if let pin { token = try await client.getPinUvAuthToken(pin: pin, permissions: [.getAssertion], rpID: rp) }
            let assertions = try await client.getAssertions(
                rpID: rp, clientDataHash: clientData.hash, allowList: credentialID.map { [$0] } ?? [], pinUvAuthToken: token)
            // The credential whose key was given (a resident lookup may return several).
            let candidates = credentialID.map { id in assertions.filter { $0.credentialID == id } } ?? assertions
            guard
                let assertion = candidates.first(where: { (try? $0.verify(publicKey: key, clientDataHash: clientData.hash)) != nil })
                    ?? candidates.first
            else {
                throw FIDOError.malformedResponse(field: "getAssertion.credential", reason: "no assertion for the given credential")
            }
            try assertion.verify(publicKey: key, clientDataHash: clientData.hash)
            guard assertion.authenticatorData.matches(rpID: rp) else {
                throw FIDOError.verificationFailed("the RP ID hash is not SHA-256 of \(rp)")
            }
            return (
                assertion.credentialID, assertion.authenticatorData.signatureCounter,
                FIDOCLI.flagsText(assertion.authenticatorData.flags), assertion.signature, assertion.user
            )
        }
        if options.json {
            var user: JSONValue = .null
            if let entity = result.user {
                user = .object([("id", .string(Hex.encode(entity.id))), ("name", entity.name.map(JSONValue.string) ?? .null)])
            }
            FIDOCLI.printJSON([
                ("protocol", .string(u2f ? "u2f" : "ctap2")), ("rp", .string(rp)),
                ("credentialId", .string(Hex.encode(result.id))), ("signatureCounter", .int(Int64(result.counter))),
                ("flags", .array(result.flags.map(JSONValue.string))), ("signature", .string(Hex.encode(result.signature))),
                ("signatureVerified", .bool(true)), ("user", user),
            ])
            return
        }
        var lines: [(String, String)] = [
            ("credential ID", Hex.encode(result.id)),
            ("counter", String(result.counter)),
            ("flags", result.flags.joined(separator: " ")),
            ("signature", "verified (\(result.signature.count) bytes)"),
        ]
        if let user = result.user { lines.append(("user", user.name ?? Hex.encode(user.id))) }
        FIDOCLI.printText(lines)
    }
}
