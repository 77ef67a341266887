import NFCJSON
import NFCeMRTD

/// `nfc passport read`'s text: every string from the chip escaped for the terminal.
enum PassportReadingText {
    static func print(_ reading: PassportReading, faceFile: String?, exportDirectory: String?) {
        let mrz = reading.mrz
        let kind = mrz.documentCode.hasPrefix("P") ? "passport" : "identity document"
        Output.line(
            "eMRTD: \(kind) (\(mrz.format.rawValue.uppercased()) MRZ), access: \(reading.accessProtocol.rawValue)"
                + (reading.pace.map { " (\($0))" } ?? ""))
        Output.line(
            "holder: \(e(mrz.primaryIdentifier)), \(e(mrz.secondaryIdentifier)); sex \(e(mrz.sex)); nationality \(e(mrz.nationality)); born \(e(mrz.dateOfBirth))"
        )
        var document = "document: \(e(mrz.documentCode)) \(e(mrz.issuingState)) \(e(mrz.documentNumber)), expires \(e(mrz.dateOfExpiry))"
        if !mrz.optionalData.isEmpty { document += ", optional data \(e(mrz.optionalData))" }
        Output.line(document)
        Output.line(
            "LDS \(e(Self.version(reading.common.ldsVersion))): \(reading.common.dataGroups.map(\.description).joined(separator: " "))")
        Output.line("read: " + reading.contents.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count) B" }.joined(separator: ", "))
        for (file, error) in reading.refused.sorted(by: { $0.key < $1.key }) {
            Output.line("refused: \(file): \(error.reason)")
        }
        if !reading.isComplete { Output.line("partial: \(reading.refused.count) file(s) above were not read") }
        if let face = reading.face {
            Output.line(
                "face: \(face.format == .jpeg ? "JPEG" : "JPEG 2000") \(face.width)×\(face.height), \(face.data.count) bytes"
                    + (faceFile.map { " → \($0)" } ?? ""))
        }
        for (name, details) in [("DG11", reading.personalDetails), ("DG12", reading.documentDetails)] {
            guard let details else { continue }
            Output.line("\(name): " + details.fields.map { "\($0.name): \(e($0.value))" }.joined(separator: "; "))
        }
        let passive = reading.passiveAuthentication
        Output.line("passive authentication: \(passive.verdict.passed ? "passed" : "not passed")")
        Output.line("  data group hashes: \(passive.hashes)")
        Output.line("  EF.SOD signature: \(passive.signature)")
        Output.line("  Document Signer chain: \(passive.chain)")
        Output.line("chip authentication: \(e(reading.chipAuthentication.description))")
        Output.line("active authentication: \(e(reading.activeAuthentication.description))")
        if let exportDirectory { Output.line("exported \(reading.contents.count) files to \(exportDirectory)") }
    }

    static func e(_ text: String) -> String { TerminalText.escape(text) }

    /// EF.COM's `0107` as `1.7` (Part 10 §4.6.1: two digits of major, two of minor version).
    static func version(_ text: String) -> String {
        guard text.count == 4, let major = Int(text.prefix(2)), let minor = Int(text.suffix(2)) else { return text }
        return "\(major).\(minor)"
    }
}

/// `nfc passport read --json`.
enum PassportReadingJSON {
    static func value(_ reading: PassportReading) -> JSONValue {
        let mrz = reading.mrz
        var members: [(String, JSONValue)] = [
            ("accessProtocol", .string(reading.accessProtocol.rawValue)),
            ("pace", reading.pace.map { .string($0.description) } ?? .null),
            (
                "document",
                .object([
                    ("format", .string(mrz.format.rawValue)), ("documentCode", .string(mrz.documentCode)),
                    ("issuingState", .string(mrz.issuingState)), ("documentNumber", .string(mrz.documentNumber)),
                    ("dateOfExpiry", .string(mrz.dateOfExpiry)), ("optionalData", .string(mrz.optionalData)),
                    ("mrz", .array(mrz.lines.map { .string($0) })),
                ])
            ),
            (
                "holder",
                .object([
                    ("primaryIdentifier", .string(mrz.primaryIdentifier)), ("secondaryIdentifier", .string(mrz.secondaryIdentifier)),
                    ("nationality", .string(mrz.nationality)), ("dateOfBirth", .string(mrz.dateOfBirth)), ("sex", .string(mrz.sex)),
                ])
            ),
            ("ldsVersion", .string(reading.common.ldsVersion)),
            ("dataGroups", .array(reading.common.dataGroups.map { .string($0.description) })),
            ("files", .object(reading.contents.sorted { $0.key < $1.key }.map { ($0.key.description, .int(Int64($0.value.count))) })),
            ("refused", .object(reading.refused.sorted { $0.key < $1.key }.map { ($0.key.description, .string($0.value.reason)) })),
            ("complete", .bool(reading.isComplete)),
        ]
        if let face = reading.face {
            members.append(
                (
                    "face",
                    .object([
                        ("format", .string(face.format.rawValue)), ("width", .int(Int64(face.width))), ("height", .int(Int64(face.height))),
                        ("bytes", .int(Int64(face.data.count))),
                    ])
                ))
        }
        for (name, details) in [("personalDetails", reading.personalDetails), ("documentDetails", reading.documentDetails)] {
            guard let details else { continue }
            members.append((name, .object(details.fields.map { ($0.name, .string($0.value)) })))
        }
        let passive = reading.passiveAuthentication
        members.append(
            (
                "passiveAuthentication",
                .object([
                    ("verdict", outcome(passive.verdict)), ("hashes", outcome(passive.hashes)), ("signature", outcome(passive.signature)),
                    ("chain", outcome(passive.chain)),
                    (
                        "dataGroupHashes",
                        .object(passive.dataGroupHashes.sorted { $0.key < $1.key }.map { ("DG\($0.key)", .bool($0.value)) })
                    ),
                ])
            ))
        members.append(("chipAuthentication", outcome(reading.chipAuthentication)))
        members.append(("activeAuthentication", outcome(reading.activeAuthentication)))
        return .object(members)
    }

    static func outcome(_ outcome: AuthenticationOutcome) -> JSONValue {
        switch outcome {
        case .notOffered: .object([("result", .string("notOffered"))])
        case .unsupported(let error):
            .object([("result", .string("notChecked")), ("code", .string(error.code.name)), ("detail", .string(error.reason))])
        case .verified(let text): .object([("result", .string("verified")), ("detail", .string(text))])
        case .failed(let error):
            .object([("result", .string("failed")), ("code", .string(error.code.name)), ("detail", .string(error.reason))])
        }
    }

    static func outcome(_ outcome: PassiveAuthentication.Outcome) -> JSONValue {
        switch outcome {
        case .passed(let text): .object([("result", .string("passed")), ("detail", .string(text))])
        case .failed(let error):
            .object([("result", .string("failed")), ("code", .string(error.code.name)), ("detail", .string(error.reason))])
        case .notChecked(let text): .object([("result", .string("notChecked")), ("detail", .string(text))])
        }
    }
}
