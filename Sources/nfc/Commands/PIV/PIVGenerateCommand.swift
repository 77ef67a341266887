import ArgumentParser
import Crypto
import Foundation
import NFCBytes
import NFCJSON
import NFCPIV

/// `nfc piv generate SLOT [--management-key HEX] [--subject CN] [--pin PIN] [--days N] [-o FILE [--force]] [--json]`.
struct PIVGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a P-256 key in a slot and store a self-signed certificate the card signs.",
        discussion: """
            Authenticates with the management key (AES; default: the well-known default \
            010203040506070801020304050607080102030405060708, AES-192), generates the key on the card, \
            builds an X.509 v3 TBSCertificate for it, has the card sign it (the PIN is verified first \
            unless the slot is 9e), and stores the certificate with PUT DATA.
            """
    )

    static let defaultManagementKey = "010203040506070801020304050607080102030405060708"

    @OptionGroup var readerOptions: ReaderOptions
    @Argument(help: "The slot: 9a, 9c, 9d or 9e.")
    var slot: String
    @Option(name: .customLong("management-key"), help: "The management key in hex: 16, 24 or 32 bytes (AES-128/192/256).")
    var managementKey: String = PIVGenerateCommand.defaultManagementKey
    @Option(name: .long, help: "The certificate's subject common name.")
    var subject: String = "OpenCoreNFC PIV"
    @Option(name: .long, help: "The PIV PIN, to let the card sign the certificate (not needed for slot 9e).")
    var pin: String?
    @Option(name: .long, help: "Days the certificate is valid.")
    var days: Int = 365
    @Option(name: .shortAndLong, help: "Also write the certificate to this file (PEM).")
    var output: String?
    @Flag(name: .long, help: "Replace an existing -o file.")
    var force = false
    /// Deprecated: `-o/--output`.
    @Option(name: .customLong("certificate-out"), help: ArgumentHelp(visibility: .hidden))
    var certificateOut: String?
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    func validate() throws {
        _ = try PIVRunner.slot(slot)
        if days < 1 { throw ValidationError("--days must be 1 or more") }
        if output != nil && certificateOut != nil { throw ValidationError("give the certificate file once, with -o FILE") }
        if subject.isEmpty { throw ValidationError("--subject must not be empty") }
    }

    func run() async throws {
        let slot = try PIVRunner.slot(slot)
        if certificateOut != nil { Output.deprecated("--certificate-out", use: "-o/--output FILE") }
        let certificateFile = output ?? certificateOut
        try Output.checkWritable(certificateFile, force: force)
        var key = try Input.hex(managementKey, what: "--management-key")
        defer { PIVGenerateCommand.wipe(&key) }
        let algorithm: PIVAlgorithm
        switch key.count {
        case 16: algorithm = .aes128
        case 24: algorithm = .aes192
        case 32: algorithm = .aes256
        default: throw CLIError("--management-key has \(key.count) bytes; an AES key has 16, 24 or 32")
        }
        if slot != .cardAuthentication && pin == nil {
            throw CLIError("slot \(slot.hex) signs only after the PIN: give --pin so the card can sign the certificate")
        }
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255) }
        serial[0] = serial[0] & 0x7F | 0x01
        let now = Date()
        let subject = subject
        let pin = try SecretInput.readIfGiven(self.pin, option: "--pin", prompt: "PIN")
        let days = days
        let managementKey = key
        let (publicKey, certificate) = try await PIVRunner.run(readerOptions, json: json) { client in
            try await client.authenticate(managementKey: managementKey, algorithm: algorithm)
            let publicKey = try await client.generateKey(slot: slot)
            if let pin { try await client.verifyPIN(pin) }
            let certificate = try await client.selfSignedCertificate(
                slot: slot, publicKey: publicKey, commonName: subject, serialNumber: serial,
                notBefore: now, notAfter: now.addingTimeInterval(Double(days) * 86_400)
            ).derBytes
            try await client.putCertificate(PIVCertificateContainer(certificate: certificate), slot: slot)
            return (publicKey, certificate)
        }
        let pem = Self.pem(certificate)
        if let certificateFile { try Output.writeFile(certificateFile, Array(pem.utf8), force: force) }
        if json {
            Output.line(
                JSONValue.object([
                    ("slot", .string(slot.hex)), ("algorithm", .string("ECCP256")),
                    ("publicKey", .string(Hex.encode(Array(publicKey.x963Representation)))),
                    ("subject", .string("CN=\(subject)")), ("certificate", .string(Hex.encode(certificate))),
                ]).serialized(pretty: true))
        } else {
            Output.line(
                TerminalText.escape(
                    "Generated a P-256 key in slot \(slot.hex); stored a self-signed certificate CN=\(subject) (\(certificate.count) bytes)."
                ))
            Output.line(String(pem.dropLast()))
        }
    }

    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [String] = []
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }

    static func wipe(_ bytes: inout [UInt8]) {
        for index in bytes.indices { bytes[index] = 0 }
    }
}
