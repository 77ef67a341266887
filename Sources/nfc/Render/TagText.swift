import Foundation
import NFCBytes
import NFCJSON
import NFCTags
import NFCTransport

/// How the CLI prints a tag's identity and NDEF status.
enum TagText {
    /// The NDEF status, or why it could not be read.
    enum StatusReading {
        case read(NDEFStatus)
        case unavailable(String)
    }

    static func identityText(target: TargetInfo, identity: TagIdentity, status: NDEFStatus) -> String {
        identityText(target: target, identity: identity, status: .read(status))
    }

    static func identityText(target: TargetInfo, identity: TagIdentity, status: StatusReading) -> String {
        var lines = [
            "\(identity.model) (NFC Forum \(identity.family.rawValue.replacingOccurrences(of: "type", with: "Type ")))",
            "  UID          \(Hex.encode(target.identifier, separator: ":"))",
        ]
        lines += activationLines(target).map { field($0.0, $0.1) }
        if let memory = identity.memorySize { lines.append("  memory       \(memory) bytes") }
        for (key, value) in identity.details { lines.append(field(key, value)) }
        switch status {
        case .read(let status):
            lines.append(
                "  NDEF         \(status.state.rawValue), capacity \(status.capacity) bytes, message \(status.messageLength) bytes")
        case .unavailable(let reason):
            lines.append("  NDEF         unavailable: \(reason)")
        }
        return lines.map(TerminalText.escape).joined(separator: "\n")
    }

    /// "  key          value", the key padded to 12 columns and never cut.
    static func field(_ key: String, _ value: String) -> String {
        "  " + key + String(repeating: " ", count: max(1, 13 - key.count)) + value
    }

    static func identityJSON(target: TargetInfo, identity: TagIdentity, status: NDEFStatus) -> [(String, JSONValue)] {
        identityJSON(target: target, identity: identity, status: .read(status))
    }

    static func identityJSON(target: TargetInfo, identity: TagIdentity, status: StatusReading) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("family", .string(identity.family.rawValue)),
            ("model", .string(identity.model)),
            ("technology", .string(target.technology.rawValue)),
            ("uid", .string(Hex.encode(target.identifier))),
        ]
        fields += activationLines(target).map { ($0.0, .string($0.1)) }
        if let memory = identity.memorySize { fields.append(("memorySize", .int(Int64(memory)))) }
        if !identity.details.isEmpty { fields.append(("details", .object(identity.details.map { ($0.0, .string($0.1)) }))) }
        switch status {
        case .read(let status): fields.append(("ndef", statusJSON(status)))
        case .unavailable(let reason): fields.append(("ndef", .object([("state", .string("unavailable")), ("reason", .string(reason))])))
        }
        return fields
    }

    static func statusJSON(_ status: NDEFStatus) -> JSONValue {
        .object([
            ("state", .string(status.state.rawValue)),
            ("capacity", .int(Int64(status.capacity))),
            ("messageLength", .int(Int64(status.messageLength))),
        ])
    }

    /// Technology-specific activation facts, as (key, hex) pairs.
    private static func activationLines(_ target: TargetInfo) -> [(String, String)] {
        switch target.parameters {
        case .iso14443A(let a):
            var lines = [("atqa", String(format: "%04x", a.atqa)), ("sak", String(format: "%02x", a.sak))]
            if let ats = a.ats { lines.append(("ats", Hex.encode(ats.bytes))) }
            return lines
        case .iso14443B(let b):
            return [("applicationData", Hex.encode(b.applicationData)), ("protocolInfo", Hex.encode(b.protocolInfo))]
        case .iso15693(let v):
            return [("dsfid", String(format: "%02x", v.dsfid))]
        case .felica(let f):
            return [("pmm", Hex.encode(f.pmm)), ("systemCode", String(format: "%04x", f.systemCode))]
        }
    }
}
