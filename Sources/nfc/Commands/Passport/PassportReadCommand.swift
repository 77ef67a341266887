import ArgumentParser
import Foundation
import NFCJSON
import NFCSimulator
import NFCeMRTD

/// `nfc passport read [--reader R] (--mrz DOCNO,BIRTH,EXPIRY | --mrz-line LINE… | --can N | --no-bac) [--bac]
/// [--csca FILE|DIR]… [--files DG1,DG2…] [--face OUT] [--export DIR] [--json]`
struct PassportReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a passport or ID card: the holder's data, the face image, and passive authentication's verdict.",
        discussion: """
            Access: --mrz with the document number, date of birth and date of expiry as printed \
            (YYMMDD), or --mrz-line once per printed MRZ line (2 lines of 44 or 36 characters, or 3 of 30): \
            PACE when the chip offers it, else BAC (--bac: BAC even so); or --can with the card access \
            number (PACE). \
            Passive authentication checks every data group read against EF.SOD, EF.SOD's signature, and, \
            with --csca, that the Document Signer is certified by one of the CSCA certificates given. \
            Exit status: 0 read (a file the chip refuses, such as DG3 without extended access control, \
            is listed as refused), 4 wrong MRZ, 3 no eMRTD, 1 passive, chip or active authentication \
            failed (the chip does not hold the key DG14 or DG15 names).
            """)

    @OptionGroup var readerOptions: ReaderOptions

    @Option(name: .long, help: "DOCUMENT-NUMBER,BIRTH,EXPIRY (dates YYMMDD): the MRZ fields BAC needs.")
    var mrz: String?

    @Option(name: .long, help: "A line of the printed MRZ; give each line in order.")
    var mrzLine: [String] = []

    @Option(name: .long, help: "The card access number printed on the document (PACE).")
    var can: String?

    @Flag(name: .long, help: "With --mrz or --mrz-line: BAC even when the chip offers PACE.")
    var bac = false

    @Flag(name: .long, help: "Read without access control (a chip without BAC or PACE).")
    var noBac = false

    @Option(
        name: .long,
        help:
            "A CSCA certificate (PEM or DER), a CSCA master list (.ml), or a directory of them, to verify the Document Signer; repeatable."
    )
    var csca: [String] = []

    @Option(name: .long, help: "Data groups to read, e.g. DG1,DG2,DG11 (default: every one EF.COM lists).")
    var files: String?

    @Option(name: .long, help: "Write the face image (JPEG or JPEG 2000) here (mode 600: personal data).")
    var face: String?

    @Option(name: .long, help: "Write every file read, raw, into this directory (EF_COM.bin, DG1.bin, …, EF_SOD.bin; mode 600).")
    var export: String?

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        let access = try accessChoice()
        let trustAnchors = try CSCAStore.load(csca)
        let wanted = try fileList()
        let (reading, _) = try await TagSession.run(readerOptions, access: .read, json: json) { connection, _ in
            guard connection.target.speaksISODEP else {
                throw CLIError(.notFound, "the tag is not an ISO-DEP card (\(connection.target.technology)): not a passport or ID card")
            }
            let reader = PassportReader(transmitter: ConnectionAPDUTransmitter(connection: connection), trustAnchors: trustAnchors)
            do {
                return try await reader.read(access: access, files: wanted)
            } catch let error as EMRTDError {
                throw CLIError(Self.exitCode(error), "passport: \(error)")
            }
        }
        if let face, let image = reading.face {
            try Self.writePrivate(image.data, to: face)
        }
        if let export {
            do {
                try FileManager.default.createDirectory(
                    atPath: export, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw CLIError(.failure, "cannot create \(export): \(error)", file: export)
            }
            for (file, bytes) in reading.contents.sorted(by: { $0.key < $1.key }) {
                try Self.writePrivate(bytes, to: (export as NSString).appendingPathComponent(file.exportName))
            }
        }
        if json {
            Output.line(PassportReadingJSON.value(reading).serialized(pretty: true))
        } else {
            PassportReadingText.print(reading, faceFile: face, exportDirectory: export)
        }
        if case .failed(let error) = reading.passiveAuthentication.verdict {
            throw CLIError(.failure, "passive authentication failed (\(error.code)): \(error.reason)")
        }
        if case .failed(let error) = reading.activeAuthentication, error.code == .chipNotGenuine {
            throw CLIError(.failure, "active authentication failed (\(error.code)): \(error.reason)")
        }
    }

    /// BAC's key, or none.
    func accessChoice() throws -> PassportReader.Access {
        let given = (mrz != nil ? 1 : 0) + (mrzLine.isEmpty ? 0 : 1) + (can != nil ? 1 : 0) + (noBac ? 1 : 0)
        guard given == 1 else {
            throw CLIError(.usage, "give exactly one of --mrz DOCNO,BIRTH,EXPIRY, --mrz-line (once per line), --can N or --no-bac")
        }
        if let can {
            guard !bac else { throw CLIError(.usage, "--bac needs the MRZ (--mrz or --mrz-line), not --can") }
            guard !can.isEmpty, can.allSatisfy(\.isNumber) else { throw CLIError(.usage, "--can: a card access number is digits") }
            return .pace(.can(can))
        }
        do {
            if let mrz { return bac ? .bac(try MRZKey(commaSeparated: mrz)) : .mrz(try MRZKey(commaSeparated: mrz)) }
            if !mrzLine.isEmpty {
                let key = try MRZKey(mrz: mrzLine.joined(separator: "\n"))
                return bac ? .bac(key) : .mrz(key)
            }
        } catch {
            throw CLIError(.usage, "\(mrz != nil ? "--mrz" : "--mrz-line"): \(error.reason)")
        }
        guard !bac else { throw CLIError(.usage, "--bac needs the MRZ (--mrz or --mrz-line)") }
        return .none
    }

    /// The data groups `--files` names.
    func fileList() throws -> [LDSFile]? {
        guard let files else { return nil }
        return try files.split(separator: ",").map { name in
            guard let file = LDSFile(name: name.trimmingCharacters(in: .whitespaces)), case .dataGroup = file else {
                throw CLIError(.usage, "--files: \"\(TerminalText.escape(String(name)))\" is not a data group DG1…DG16")
            }
            return file
        }
    }

    static func exitCode(_ error: EMRTDError) -> CLIError.Code {
        switch error.code {
        case .chipNotGenuine: .failure
        case .accessDenied, .securityStatusNotSatisfied, .authenticationFailed: .permission
        case .notAPassport, .fileNotFound: .notFound
        case .invalidMRZ: .usage
        case .malformedFile, .secureMessaging, .unexpectedStatus, .unsupportedAlgorithm: .badInput
        default: .failure
        }
    }

    /// Writes personal data readable by its owner only.
    static func writePrivate(_ bytes: [UInt8], to path: String) throws {
        do {
            try AtomicFile.write(bytes, to: path, mode: .exactly(0o600), replace: true)
        } catch {
            throw CLIError(.failure, "cannot write \(path): \(error)", file: path)
        }
    }
}
