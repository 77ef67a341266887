import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCFIDO
import NFCJSON

/// `nfc fido register --rp ID [--user NAME] [--resident] [--pin PIN] [--u2f] [-o FILE [--force]] [--json]`
struct FIDORegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Make a credential (CTAP2 MakeCredential or U2F REGISTER), verify its attestation, print its ID and public key."
    )

    @OptionGroup var options: FIDOOptions
    @Option(name: .long, help: "The relying party ID (a domain).")
    var rp: String
    @Option(name: .long, help: "The user name (CTAP2).")
    var user: String = "user"
    @Flag(name: .long, help: "Make a resident (discoverable) credential (CTAP2).")
    var resident = false
    @Option(name: .long, help: "The PIN, for user verification (CTAP2; - for a line of standard input).")
    var pin: String?
    @Option(name: .shortAndLong, help: "Write the credential ID and public key to this JSON file (nfc fido assert's --key-file).")
    var output: String?
    @Flag(name: .long, help: "Replace an existing -o file.")
    var force = false
    /// Deprecated: `-o/--output` (assert's `--key-file` reads the file).
    @Option(name: .customLong("key-file"), help: ArgumentHelp(visibility: .hidden))
    var oldKeyFile: String?

    func validate() throws {
        if rp.isEmpty { throw ValidationError("--rp must not be empty") }
        if output != nil && oldKeyFile != nil { throw ValidationError("give the key file once, with -o FILE") }
        if options.u2f && (resident || pin != nil) { throw ValidationError("--resident and --pin are CTAP2 features; leave out --u2f") }
    }

    func run() async throws {
        if oldKeyFile != nil { Output.deprecated("--key-file on register", use: "-o/--output FILE") }
        let keyFile = output ?? oldKeyFile
        try Output.checkWritable(keyFile, force: force)
        let pin = try SecretInput.readIfGiven(self.pin, option: "--pin", prompt: "PIN")
        let (rp, user, resident, u2f) = (rp, user, resident, options.u2f)
        let result = try await FIDOCLI.run(options) {
            client, _ -> (id: [UInt8], point: [UInt8], counter: UInt32, flags: [String], format: String) in
            let clientData = FIDOCLI.clientData(type: "webauthn.create", rp: rp)
            if u2f {
                let application = FIDOCLI.application(rp)
                let registration = try await client.u2fRegister(challenge: clientData.hash, application: application)
                try registration.verify(challenge: clientData.hash, application: application)
                return (registration.keyHandle, registration.publicKey, 0, [], "fido-u2f")
            }
            var token: PinUvAuthToken?
            if let pin { token = try await client.getPinUvAuthToken(pin: pin, permissions: [.makeCredential, .getAssertion], rpID: rp) }
            let attestation = try await client.makeCredential(
                clientDataHash: clientData.hash, rp: RelyingParty(id: rp),
                user: UserEntity(id: FIDOCLI.userHandle(user), name: user, displayName: user),
                residentKey: resident, pinUvAuthToken: token)
            try attestation.verify(clientDataHash: clientData.hash)
            guard attestation.authenticatorData.matches(rpID: rp) else {
                throw FIDOError.verificationFailed("the RP ID hash is not SHA-256 of \(rp)")
            }
            let credential = try attestation.credential
            return (
                credential.credentialID, credential.publicKey.uncompressedPoint, attestation.authenticatorData.signatureCounter,
                FIDOCLI.flagsText(attestation.authenticatorData.flags), attestation.format
            )
        }
        if let keyFile {
            try FIDOKeyFile(
                protocolName: u2f ? "u2f" : "ctap2", rp: rp, user: u2f ? nil : user, credentialId: Hex.encode(result.id),
                publicKey: Hex.encode(result.point), resident: resident
            ).write(keyFile, force: force)
        }
        if options.json {
            FIDOCLI.printJSON([
                ("protocol", .string(u2f ? "u2f" : "ctap2")), ("rp", .string(rp)), ("user", u2f ? .null : .string(user)),
                ("credentialId", .string(Hex.encode(result.id))), ("publicKey", .string(Hex.encode(result.point))),
                ("attestation", .string(result.format)), ("attestationVerified", .bool(true)),
                ("signatureCounter", .int(Int64(result.counter))), ("flags", .array(result.flags.map(JSONValue.string))),
                ("resident", .bool(resident)), ("keyFile", keyFile.map(JSONValue.string) ?? .null),
            ])
            return
        }
        var lines: [(String, String)] = [
            ("credential ID", Hex.encode(result.id)),
            ("public key", Hex.encode(result.point)),
            ("attestation", "\(result.format), verified"),
        ]
        if !u2f {
            lines.append(("flags", result.flags.joined(separator: " ")))
            lines.append(("counter", String(result.counter)))
        }
        if let keyFile { lines.append(("key file", keyFile)) }
        FIDOCLI.printText(lines)
    }
}
