import NDEF
import NDEFJSON
import NFCBytes

/// The human-readable form of a decoded message.
enum NDEFTextRenderer {
    static func render(_ message: NDEFMessage, length: Int, options: NDEFDecodingOptions) -> String {
        var lines: [String] = []
        let n = message.records.count
        lines.append("NDEF message: \(n) record\(n == 1 ? "" : "s"), \(length) bytes")
        for (i, record) in message.records.enumerated() {
            var head = "[\(i)] \(record.typeNameFormat)"
            if !record.type.isEmpty { head += " \"\(record.typeLatin1)\"" }
            if !record.identifier.isEmpty { head += " id \"\(record.identifierLatin1)\"" }
            head += ", \(record.payload.count) byte payload"
            lines.append(head)
            switch connectivityJSONField(record, options: options) {
            case .typed(let key, let value)?:
                lines.append("    \(key): \(value.serialized())")
                continue
            case .invalid(let reason)?:
                lines.append("    invalid: \(reason)")
                lines.append("    payload: " + preview(record.payload))
                continue
            case nil:
                break
            }
            do {
                if let typed = try record.typed(options: options) {
                    lines.append(contentsOf: describe(typed).map { "    " + $0 })
                } else if !record.payload.isEmpty {
                    lines.append("    payload: " + preview(record.payload))
                }
            } catch {
                lines.append("    invalid: \(error)")
                lines.append("    payload: " + preview(record.payload))
            }
        }
        return lines.map(TerminalText.escape).joined(separator: "\n")
    }

    static func preview(_ bytes: [UInt8]) -> String {
        bytes.count <= 64 ? Hex.encode(bytes, separator: " ") : Hex.encode(bytes.prefix(64), separator: " ") + " … (\(bytes.count) bytes)"
    }

    static func describe(_ typed: NDEFTypedRecord) -> [String] {
        switch typed {
        case .text(let t):
            return ["Text (\(t.languageCode), \(t.encoding == .utf8 ? "UTF-8" : "UTF-16")): \(t.text)"]
        case .uri(let u):
            return ["URI: \(u.uri)"]
        case .smartPoster(let sp):
            var out = ["Smart Poster: \(sp.uri.uri)"]
            for t in sp.titles { out.append("  title (\(t.languageCode)): \(t.text)") }
            if let a = sp.action { out.append("  action: \(a)") }
            if let s = sp.size { out.append("  size: \(s) bytes") }
            if let t = sp.type { out.append("  type: \(t)") }
            for icon in sp.icons { out.append("  icon: \(icon.mimeType), \(icon.data.count) bytes") }
            if !sp.otherRecords.isEmpty { out.append("  + \(sp.otherRecords.count) other record(s)") }
            return out
        case .deviceInformation(let di):
            var out = ["Device Information: \(di.manufacturer) \(di.model)"]
            if let n = di.deviceName { out.append("  device name: \(n)") }
            if let u = di.uuidString { out.append("  UUID: \(u)") }
            if let v = di.firmwareVersion { out.append("  firmware: \(v)") }
            return out
        case .signature(let s):
            var out = ["Signature: version 0x\(Hex.encode([s.version])), type \(s.signatureType), hash \(s.hashType)"]
            if let uri = s.signatureURI {
                out.append("  signature at: \(uri)")
            } else {
                out.append("  signature: \(s.signature.count) bytes")
            }
            out.append("  certificates: \(s.certificates.count) (format \(s.certificateFormat))")
            if let uri = s.certificateURI { out.append("  certificate chain at: \(uri)") }
            return out
        case .mime(let m):
            var out = ["Media type: \(m.mimeType)"]
            if m.essence.hasPrefix("text/") || m.essence == "application/json" {
                out.append("  " + String(decoding: m.data.prefix(256), as: UTF8.self))
            } else {
                out.append("  data: " + preview(m.data))
            }
            return out
        case .external(let e):
            return ["External type: \(e.typeName)", "  payload: " + preview(e.payload)]
        }
    }
}
