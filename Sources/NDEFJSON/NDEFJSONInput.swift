import NDEF
import NFCBytes
import NFCJSON

/// The encoding side of the JSON form: JSON descriptions → records.
extension NDEFJSON {
    /// Builds the message; throws the builders' own errors (see ``message(from:)``).
    static func buildMessage(from json: JSONValue) throws -> NDEFMessage {
        guard let records = json["records"]?.arrayValue else {
            throw NDEFJSONError(path: "$", reason: "expected an object with a \"records\" array")
        }
        var out: [NDEFRecord] = []
        out.reserveCapacity(records.count)
        for (i, r) in records.enumerated() {
            out.append(try record(from: r, path: "$.records[\(i)]"))
        }
        return NDEFMessage(records: out)
    }

    package static func string(_ json: JSONValue, _ key: String, _ path: String) throws -> String? {
        guard let v = json[key] else { return nil }
        guard let s = v.stringValue else { throw NDEFJSONError(path: "\(path).\(key)", reason: "expected a string") }
        return s
    }

    package static func requiredString(_ json: JSONValue, _ key: String, _ path: String) throws -> String {
        guard let s = try string(json, key, path) else {
            throw NDEFJSONError(path: "\(path).\(key)", reason: "missing")
        }
        return s
    }

    package static func hex(_ json: JSONValue, _ key: String, _ path: String) throws -> [UInt8]? {
        guard let s = try string(json, key, path) else { return nil }
        do { return try Hex.decode(s) } catch { throw NDEFJSONError(path: "\(path).\(key)", reason: error.description) }
    }

    package static func integer(_ json: JSONValue, _ key: String, _ path: String, max: Int64) throws -> Int64? {
        guard let v = json[key] else { return nil }
        guard let i = v.intValue, i >= 0, i <= max else {
            throw NDEFJSONError(path: "\(path).\(key)", reason: "expected an integer from 0 to \(max)")
        }
        return i
    }

    package static func latin1(_ json: JSONValue, _ key: String, _ path: String) throws -> [UInt8]? {
        guard let s = try string(json, key, path) else { return nil }
        guard let bytes = NDEFRecord.latin1Bytes(s) else {
            throw NDEFJSONError(path: "\(path).\(key)", reason: "characters above U+00FF (one character stands for one byte)")
        }
        return bytes
    }

    package static func text(from json: JSONValue, path: String) throws -> TextRecord {
        let text = try requiredString(json, "text", path)
        let language = try string(json, "language", path) ?? "en"
        let encoding: TextRecord.Encoding
        switch try string(json, "encoding", path) ?? "utf8" {
        case "utf8", "utf-8", "UTF-8": encoding = .utf8
        case "utf16", "utf-16", "UTF-16": encoding = .utf16
        case let other: throw NDEFJSONError(path: "\(path).encoding", reason: "\"\(other)\" is neither utf8 nor utf16")
        }
        return TextRecord(text: text, languageCode: language, encoding: encoding)
    }

    /// Builds one record: from a typed field when one is present, else from tnf/type/payload.
    package static func record(from json: JSONValue, path: String) throws -> NDEFRecord {
        guard case .object = json else { throw NDEFJSONError(path: path, reason: "expected an object") }
        if let record = try connectivityRecord(fromJSON: json, path: path) { return record }
        let id = try latin1(json, "id", path) ?? []
        var record: NDEFRecord
        if let uri = try string(json, "uri", path) {
            record = try URIRecord(uri: uri).record()
        } else if json["text"] != nil {
            record = try text(from: json, path: path).record()
        } else if let sp = json["smartPoster"] {
            record = try smartPoster(from: sp, path: path + ".smartPoster").record()
        } else if let di = json["deviceInformation"] {
            record = try deviceInformation(from: di, path: path + ".deviceInformation").record()
        } else if let sig = json["signature"] {
            record = try signature(from: sig, path: path + ".signature").record()
        } else if let ext = json["external"] {
            let domain = try requiredString(ext, "domain", path + ".external")
            let name = try requiredString(ext, "type", path + ".external")
            record = try ExternalRecord(domain: domain, name: name, payload: try hex(json, "payload", path) ?? []).record()
        } else if let mime = try string(json, "mimeType", path) {
            record = try MIMERecord(mimeType: mime, data: try hex(json, "payload", path) ?? []).record()
        } else {
            let tnfName = try requiredString(json, "tnf", path)
            guard let tnf = NDEFTypeNameFormat(name: tnfName) else {
                throw NDEFJSONError(path: "\(path).tnf", reason: "unknown TNF \"\(tnfName)\"")
            }
            record = NDEFRecord(
                typeNameFormat: tnf, type: try latin1(json, "type", path) ?? [],
                payload: try hex(json, "payload", path) ?? [])
        }
        record.identifier = id
        return record
    }

    package static func smartPoster(from json: JSONValue, path: String) throws -> SmartPosterRecord {
        let uri = URIRecord(uri: try requiredString(json, "uri", path))
        var sp = SmartPosterRecord(uri: uri)
        for (i, t) in (json["titles"]?.arrayValue ?? []).enumerated() {
            sp.titles.append(try text(from: t, path: "\(path).titles[\(i)]"))
        }
        if let action = json["action"] {
            switch action {
            case .string("do"): sp.action = .doAction
            case .string("save"): sp.action = .save
            case .string("open"): sp.action = .open
            default:
                guard let raw = action.intValue, raw >= 0, raw <= 255 else {
                    throw NDEFJSONError(path: "\(path).action", reason: "expected do, save, open or a number 0-255")
                }
                sp.action = SmartPosterAction(rawValue: UInt8(raw))
            }
        }
        if let size = try integer(json, "size", path, max: Int64(UInt32.max)) { sp.size = UInt32(size) }
        sp.type = try string(json, "type", path)
        for (i, icon) in (json["icons"]?.arrayValue ?? []).enumerated() {
            let p = "\(path).icons[\(i)]"
            sp.icons.append(MIMERecord(mimeType: try requiredString(icon, "type", p), data: try hex(icon, "data", p) ?? []))
        }
        for (i, other) in (json["otherRecords"]?.arrayValue ?? []).enumerated() {
            sp.otherRecords.append(try genericRecord(json: other, path: "\(path).otherRecords[\(i)]"))
        }
        return sp
    }

    package static func deviceInformation(from json: JSONValue, path: String) throws -> DeviceInformationRecord {
        var di = DeviceInformationRecord(
            manufacturer: try requiredString(json, "manufacturer", path), model: try requiredString(json, "model", path))
        di.deviceName = try string(json, "deviceName", path)
        di.firmwareVersion = try string(json, "firmwareVersion", path)
        if let uuid = try string(json, "uuid", path) {
            guard let bytes = try? Hex.decode(uuid), bytes.count == 16 else {
                throw NDEFJSONError(path: "\(path).uuid", reason: "expected 16 bytes as hex (dashes allowed)")
            }
            di.uuid = bytes
        }
        for (i, e) in (json["other"]?.arrayValue ?? []).enumerated() {
            let p = "\(path).other[\(i)]"
            guard let tag = try integer(e, "tag", p, max: 255) else { throw NDEFJSONError(path: p + ".tag", reason: "missing") }
            di.otherElements.append(.init(tag: UInt8(tag), value: try hex(e, "value", p) ?? []))
        }
        return di
    }

    package static func signature(from json: JSONValue, path: String) throws -> SignatureRecord {
        var s = SignatureRecord(
            version: UInt8(try integer(json, "version", path, max: 255) ?? Int64(SignatureRecord.version2)),
            signatureType: UInt8(try integer(json, "signatureType", path, max: 127) ?? 0),
            hashType: UInt8(try integer(json, "hashType", path, max: 255) ?? 0))
        s.signature = try hex(json, "signature", path) ?? []
        s.signatureURI = try string(json, "signatureURI", path)
        s.certificateFormat = UInt8(try integer(json, "certificateFormat", path, max: 7) ?? 0)
        for (i, c) in (json["certificates"]?.arrayValue ?? []).enumerated() {
            guard let h = c.stringValue, let bytes = try? Hex.decode(h) else {
                throw NDEFJSONError(path: "\(path).certificates[\(i)]", reason: "expected hex")
            }
            s.certificates.append(bytes)
        }
        s.certificateURI = try string(json, "certificateURI", path)
        return s
    }
}
