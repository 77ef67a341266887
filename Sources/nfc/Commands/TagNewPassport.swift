import ArgumentParser
import Foundation
import NFCSimulator
import X509

/// The holder of `nfc tag new passport|id-card`.
struct PassportOptions: ParsableArguments {
    @Option(name: .long, help: "passport, id-card: the document number (up to 9 characters, 0-9 A-Z; default L898902C3).")
    var documentNumber: String?

    @Option(name: .long, help: "passport, id-card: the holder's date of birth, YYMMDD (default 740812).")
    var birth: String?

    @Option(name: .long, help: "passport, id-card: the date of expiry, YYMMDD (default 120415).")
    var expiry: String?

    @Option(name: .long, help: "passport, id-card: SURNAME, GIVEN NAMES as the MRZ prints them (default ERIKSSON, ANNA MARIA).")
    var name: String?

    @Option(
        name: .long,
        help:
            "passport, id-card: the optional data / personal number (default the specimen's ZE184226B with the specimen's document number, else none)."
    )
    var personalNumber: String?

    @Option(name: .long, help: "passport, id-card: M, F or < (default F).")
    var sex: String?

    @Option(name: .long, help: "passport, id-card: the nationality and issuing state, three letters (default UTO).")
    var nationality: String?

    @Option(name: .long, help: "passport, id-card: a JPEG or JPEG 2000 face image for DG2 (default a small grey silhouette).")
    var face: String?

    @Flag(name: .long, help: "passport, id-card: a chip without Basic Access Control (PACE only; with --no-pace, a chip anyone may read).")
    var noBac = false

    @Flag(name: .long, help: "passport, id-card: a chip without PACE (no EF.CardAccess; BAC only).")
    var noPace = false

    @Option(name: .long, help: "passport, id-card: the card access number PACE accepts (default 123456).")
    var can: String?

    @Option(name: .long, help: "passport, id-card: PACE's curve, brainpoolP256r1 (default) or P-256.")
    var paceCurve: String?

    @Option(name: .long, help: "passport, id-card: PACE's mapping, GM (generic, default) or IM (integrated).")
    var paceMapping: String?

    @Flag(name: .long, help: "passport, id-card: a chip without chip authentication (no chip key in DG14).")
    var noChipAuthentication = false

    @Option(name: .long, help: "passport, id-card: the secure messaging chip authentication moves to, AES-128 (default) or 3DES.")
    var chipAuthenticationCipher: String?

    @Flag(name: .long, help: "passport, id-card: a chip without active authentication (no DG15).")
    var noActiveAuthentication = false

    @Option(name: .long, help: "passport, id-card: active authentication's key, ECDSA (P-256, default) or RSA (1024 bits, ISO/IEC 9796-2).")
    var activeAuthenticationAlgorithm: String?

    @Option(name: .long, help: "passport, id-card: also write the test CSCA's certificate (PEM) here, for --csca of nfc passport read.")
    var cscaOut: String?

    /// Whether any passport option was given.
    var isGiven: Bool {
        documentNumber != nil || personalNumber != nil || birth != nil || expiry != nil || name != nil || sex != nil || nationality != nil
            || face != nil || noBac
            || noPace || can != nil || paceCurve != nil || cscaOut != nil || paceMapping != nil || noChipAuthentication
            || chipAuthenticationCipher != nil || noActiveAuthentication || activeAuthenticationAlgorithm != nil
    }

    /// The holder the options describe.
    func holder(kind: PassportHolder.DocumentKind) throws -> PassportHolder {
        var holder = PassportHolder(kind: kind)
        if let documentNumber {
            holder.documentNumber = documentNumber.uppercased()
            holder.personalNumber = ""
        }
        if let personalNumber { holder.personalNumber = personalNumber.uppercased() }
        if let birth { holder.dateOfBirth = birth }
        if let expiry { holder.dateOfExpiry = expiry }
        if let name {
            let parts = name.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            holder.surname = parts.first ?? ""
            holder.givenNames = parts.count > 1 ? parts[1] : ""
        }
        if let sex { holder.sex = sex.uppercased() }
        if let nationality {
            holder.nationality = nationality.uppercased()
            holder.issuingState = nationality.uppercased()
        }
        if let face {
            let bytes = try Input.readFile(face, limit: 1 << 20)
            guard
                bytes.starts(with: [0xFF, 0xD8]) || bytes.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50])
                    || bytes.starts(with: [0xFF, 0x4F])
            else {
                throw CLIError(.badInput, "\(face): not a JPEG or JPEG 2000 image", file: face)
            }
            holder.face = bytes
        }
        holder.bac = !noBac
        if noPace {
            guard can == nil, paceCurve == nil, paceMapping == nil else {
                throw CLIError(.usage, "--can, --pace-curve and --pace-mapping need PACE; drop --no-pace")
            }
            holder.pace = nil
        } else {
            var pace = PassportApplet.PACESettings()
            if let can { pace.can = can }
            switch paceCurve?.lowercased() {
            case nil, "brainpoolp256r1": pace.parameterIdentifier = 13
            case "p-256", "p256", "secp256r1": pace.parameterIdentifier = 12
            default: throw CLIError(.usage, "--pace-curve is brainpoolP256r1 or P-256, not \(TerminalText.escape(paceCurve ?? ""))")
            }
            switch paceMapping?.uppercased() {
            case nil, "GM": pace.integratedMapping = false
            case "IM": pace.integratedMapping = true
            default: throw CLIError(.usage, "--pace-mapping is GM or IM, not \(TerminalText.escape(paceMapping ?? ""))")
            }
            holder.pace = pace
        }
        if noChipAuthentication {
            guard chipAuthenticationCipher == nil else {
                throw CLIError(.usage, "--chip-authentication-cipher needs chip authentication; drop --no-chip-authentication")
            }
            holder.chipAuthentication = nil
        } else if let chipAuthenticationCipher {
            guard
                let cipher = PassportHolder.ChipAuthenticationCipher.allCases.first(where: {
                    $0.rawValue.caseInsensitiveCompare(chipAuthenticationCipher) == .orderedSame
                })
            else {
                throw CLIError(
                    .usage, "--chip-authentication-cipher is AES-128 or 3DES, not \(TerminalText.escape(chipAuthenticationCipher))")
            }
            holder.chipAuthentication = cipher
        }
        holder.activeAuthentication = !noActiveAuthentication
        if let activeAuthenticationAlgorithm {
            guard !noActiveAuthentication else {
                throw CLIError(.usage, "--active-authentication-algorithm needs active authentication; drop --no-active-authentication")
            }
            guard let algorithm = PassportHolder.ActiveAuthenticationAlgorithm(rawValue: activeAuthenticationAlgorithm.uppercased()) else {
                throw CLIError(
                    .usage, "--active-authentication-algorithm is ECDSA or RSA, not \(TerminalText.escape(activeAuthenticationAlgorithm))")
            }
            holder.activeAuthenticationAlgorithm = algorithm
        }
        return holder
    }
}

extension TagNewCommand {
    /// `, BAC and PACE (brainpoolP256r1, CAN 123456)` and the like.
    static func accessSummary(_ holder: PassportHolder) -> String {
        var parts: [String] = []
        if holder.bac { parts.append("BAC") }
        if let pace = holder.pace {
            let curve = pace.parameterIdentifier == 12 ? "P-256" : "brainpoolP256r1"
            parts.append("PACE-\(pace.integratedMapping ? "IM" : "GM") (\(curve)\(pace.can.map { ", CAN \($0)" } ?? ""))")
        }
        var summary = parts.isEmpty ? ", no access control" : ", " + parts.joined(separator: " and ")
        if let cipher = holder.chipAuthentication { summary += ", chip authentication (\(cipher.rawValue))" }
        if holder.activeAuthentication {
            summary +=
                holder.activeAuthenticationAlgorithm == .rsa
                ? ", active authentication (RSA-1024)" : ", active authentication (ECDSA P-256)"
        }
        return summary
    }

    /// A passport or ID card for the holder the options give, and its CSCA certificate when asked.
    func makePassport(identifier: [UInt8]?) throws {
        guard !blank else { throw CLIError(.usage, "--blank makes no sense for a \(type): an eMRTD is issued personalised") }
        guard passTypeId == nil, passMessage == nil, message == nil, merchantKey == nil else {
            throw CLIError(.usage, "--pass-type-id, --pass-message and --merchant-key are for wallet-pass only")
        }
        if let identifier, ![4, 7, 10].contains(identifier.count) {
            throw CLIError(.badInput, "--uid: ISO/IEC 14443-3 UIDs have 4, 7 or 10 bytes, not \(identifier.count)")
        }
        if let path = passport.cscaOut, !force, FileManager.default.fileExists(atPath: path) {
            throw CLIError(.badInput, "\(path) exists; pass --force to replace it", file: path)
        }
        let holder = try passport.holder(kind: type == .passport ? .passport : .idCard)
        let applet: PassportApplet
        do {
            applet = try PassportIssuer.issue(holder)
        } catch {
            throw CLIError(.badInput, "\(error)")
        }
        let card = PassportApplet.card(applet, uid: identifier)
        try TagImageOutput.create(card, at: output, replace: force)
        let number = TerminalText.escape(holder.documentNumber)
        Output.line(
            "wrote \(output): \(TagSummary.line(card)); \(type) \(number), born \(holder.dateOfBirth), expires \(holder.dateOfExpiry)"
                + Self.accessSummary(holder))
        if let path = passport.cscaOut {
            let pem: String
            do {
                pem = try Certificate(derEncoded: applet.cscaCertificate).serializeAsPEM().pemString + "\n"
            } catch {
                throw CLIError(.failure, "cannot encode the CSCA certificate: \(error)")
            }
            do {
                try AtomicFile.write(Array(pem.utf8), to: path, mode: .umask, replace: force)
            } catch {
                throw CLIError(.failure, "cannot write the CSCA certificate: \(error)", file: path)
            }
            Output.line("wrote \(path): the test CSCA's certificate (PEM), for nfc passport read --csca")
        }
    }
}
