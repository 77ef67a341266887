import ArgumentParser
import Crypto
import Foundation
import NFCSimulator

/// `nfc tag new TYPE [--blank] [--uid HEX] -o FILE [--force]`, for `wallet-pass`
/// `[--pass-type-id ID] [--pass-message TEXT] [--merchant-key PEM]`, and for `passport`/`id-card`
/// the holder's fields (``PassportOptions``)
struct TagNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a virtual tag image.",
        discussion: """
            Types: \(VirtualTagKind.allCases.map(\.rawValue).joined(separator: ", ")). \
            Without --blank the tag is formatted for NDEF and holds an empty message, as tags sold \
            for NFC use are; with --blank it is factory-fresh and unformatted. A wallet-pass is a phone \
            holding one Wallet pass for NFCVASReaderSession (docs/vas-protocol.md): without \
            --merchant-key a merchant key pair is made and its private key written beside the image \
            as FILE.merchant-key.pem (mode 0600), to decrypt what the pass returns. A passport or \
            id-card is an ICAO 9303 eMRTD with BAC, for the ICAO specimen holder unless told \
            otherwise; its EF.SOD is signed by a fresh test Document Signer under a fresh test CSCA \
            (--csca-out writes the CSCA's certificate; test keys only, docs/emrtd.md).
            """
    )

    @Argument(help: "The tag type.")
    var type: VirtualTagKind

    @Flag(name: .long, help: "Make an unformatted tag (no NDEF capability container).")
    var blank = false

    @Option(name: .long, help: "The UID (IDm for FeliCa) as hex; a fixed default otherwise.")
    var uid: String?

    @Option(name: .shortAndLong, help: "Where to write the image.")
    var output: String

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    @Option(name: .long, help: "wallet-pass: the pass type identifier (default \(WalletApplet.samplePassTypeIdentifier)).")
    var passTypeId: String?

    @Option(name: .customLong("pass-message"), help: "wallet-pass: the pass's NFC message, at most 64 bytes of UTF-8.")
    var passMessage: String?
    /// Deprecated: `--pass-message` (`--message` is a whole NDEF message file everywhere else).
    @Option(name: .long, help: ArgumentHelp(visibility: .hidden))
    var message: String?

    @Option(name: .long, help: "wallet-pass: the merchant's P-256 public key, PEM (SubjectPublicKeyInfo).")
    var merchantKey: String?

    @OptionGroup(title: "passport and id-card")
    var passport: PassportOptions

    func run() throws {
        if !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError(.badInput, "\(output) exists; pass --force to replace it", file: output)
        }
        let identifier = try uid.map { try Input.hex($0, what: "--uid") }
        if type == .walletPass {
            try makeWalletPass(identifier: identifier)
            return
        }
        if type == .passport || type == .idCard {
            try makePassport(identifier: identifier)
            return
        }
        guard !passport.isGiven else {
            throw CLIError(
                .usage,
                "--document-number, --personal-number, --birth, --expiry, --name, --sex, --nationality, --face, --no-bac, --no-pace, --can, --pace-curve and --csca-out are for passport and id-card only"
            )
        }
        guard passTypeId == nil, passMessage == nil, message == nil, merchantKey == nil else {
            throw CLIError(.usage, "--pass-type-id, --pass-message and --merchant-key are for wallet-pass only")
        }
        let tag: any VirtualTag
        do {
            tag = try type.make(blank: blank, identifier: identifier)
        } catch {
            throw CLIError(.badInput, "\(error)")
        }
        try TagImageOutput.create(tag, at: output, replace: force)
        Output.line("wrote \(output): \(TagSummary.line(tag))")
    }

    /// A phone with one pass: the given merchant key, or a new key pair whose private key is
    /// written beside the image, private to its owner.
    func makeWalletPass(identifier: [UInt8]?) throws {
        let passType = passTypeId ?? WalletApplet.samplePassTypeIdentifier
        guard !passType.isEmpty else { throw CLIError(.badInput, "--pass-type-id cannot be empty") }
        if message != nil { Output.deprecated("--message TEXT on tag new", use: "--pass-message TEXT") }
        let text = Array((passMessage ?? message ?? "OpenCoreNFC sample pass").utf8)
        guard text.count <= 64 else {
            throw CLIError(.badInput, "--pass-message holds \(text.count) bytes; a pass message holds at most 64")
        }
        if let identifier, ![4, 7, 10].contains(identifier.count) {
            throw CLIError(.badInput, "--uid: ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes, not \(identifier.count)")
        }
        var privateKey: P256.KeyAgreement.PrivateKey?
        let publicKey: P256.KeyAgreement.PublicKey
        if let path = merchantKey {
            let pem = String(decoding: try Input.readFile(path, limit: 1 << 16), as: UTF8.self)
            do {
                publicKey = try P256.KeyAgreement.PublicKey(pemRepresentation: pem)
            } catch {
                throw CLIError(.badInput, "\(path): not a P-256 public key in PEM (-----BEGIN PUBLIC KEY-----)", file: path)
            }
        } else {
            let made = P256.KeyAgreement.PrivateKey()
            privateKey = made
            publicKey = made.publicKey
        }
        let pass = WalletApplet.Pass(passTypeIdentifier: passType, message: text, merchantKey: publicKey)
        let tag = ISO7816Card(uid: identifier ?? WalletApplet.phoneUID, applets: blank ? [] : [WalletApplet(passes: [pass])])
        let keyPath = output + ".merchant-key.pem"
        if privateKey != nil, !force, FileManager.default.fileExists(atPath: keyPath) {
            throw CLIError(.badInput, "\(keyPath) exists; pass --force to replace it", file: keyPath)
        }
        try TagImageOutput.create(tag, at: output, replace: force)
        Output.line("wrote \(output): \(TagSummary.line(tag)); pass \(TerminalText.escape(passType))")
        if let privateKey, !blank {
            do {
                try AtomicFile.write(Array(privateKey.pemRepresentation.utf8), to: keyPath, mode: .exactly(0o600), replace: force)
            } catch {
                throw CLIError(.failure, "cannot write the merchant key: \(error)", file: keyPath)
            }
            Output.line("wrote \(keyPath): the merchant's private key (mode 600), to decrypt the pass's VAS data")
        }
    }
}

extension VirtualTagKind: ExpressibleByArgument {}
