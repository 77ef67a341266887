import NDEF
import NFCBytes
import NFCJSON

/// Converts NDEF messages to and from the JSON form documented in docs/ndef-json.md.
///
/// Decoding (message → JSON) never fails: a record whose payload breaks its type's definition
/// is rendered generically with an `invalid` reason. Encoding (JSON → message) checks the
/// JSON's shape, every key, and that the message it builds reads back with the strict decoder.
public enum NDEFJSON {
    // MARK: Decoding side (message → JSON)

    /// The JSON form of a message: `{"length"?, "records": […]}`.
    /// - Parameters:
    ///   - message: the message to render.
    ///   - options: how leniently each record's typed view is read.
    ///   - length: the encoded length, when the caller wants it shown.
    public static func json(for message: NDEFMessage, options: NDEFDecodingOptions, length: Int? = nil) -> JSONValue {
        var o = JSONObjectBuilder()
        if let length { o.set("length", length) }
        o.set("records", .array(message.records.map { json(for: $0, options: options) }))
        return o.value
    }

    /// The JSON form of one record: its generic fields and, where its type has one, a typed field.
    public static func json(for record: NDEFRecord, options: NDEFDecodingOptions) -> JSONValue {
        var o = JSONObjectBuilder()
        o.set("tnf", record.typeNameFormat.description)
        o.set("type", record.typeLatin1)
        o.set("id", record.identifierLatin1)
        o.set("payload", Hex.encode(record.payload))
        switch connectivityJSONField(record, options: options) {
        case .typed(let key, let value)?:
            if record.typeNameFormat == .media { o.set("mimeType", record.typeLatin1) }
            o.set(key, value)
            return o.value
        case .invalid(let reason)?:
            if record.typeNameFormat == .media { o.set("mimeType", record.typeLatin1) }
            o.set("invalid", reason)
            return o.value
        case nil:
            break
        }
        do {
            if let typed = try record.typed(options: options) {
                typedFields(typed, into: &o)
            }
        } catch {
            o.set("invalid", error.description)
        }
        return o.value
    }

    package static func typedFields(_ typed: NDEFTypedRecord, into o: inout JSONObjectBuilder) {
        switch typed {
        case .text(let t):
            o.set("text", t.text)
            o.set("language", t.languageCode)
            o.set("encoding", t.encoding == .utf8 ? "utf8" : "utf16")
        case .uri(let u):
            o.set("uri", u.uri)
        case .smartPoster(let sp):
            o.set("smartPoster", smartPosterJSON(sp))
        case .deviceInformation(let di):
            o.set("deviceInformation", deviceInformationJSON(di))
        case .signature(let s):
            o.set("signature", signatureJSON(s))
        case .mime(let m):
            o.set("mimeType", m.mimeType)
        case .external(let e):
            var x = JSONObjectBuilder()
            x.set("domain", e.domain)
            x.set("type", e.name)
            o.set("external", x.value)
        }
    }

    package static func textJSON(_ t: TextRecord) -> JSONValue {
        var o = JSONObjectBuilder()
        o.set("text", t.text)
        o.set("language", t.languageCode)
        o.set("encoding", t.encoding == .utf8 ? "utf8" : "utf16")
        return o.value
    }

    package static func smartPosterJSON(_ sp: SmartPosterRecord) -> JSONValue {
        var o = JSONObjectBuilder()
        o.set("uri", sp.uri.uri)
        o.set("titles", .array(sp.titles.map(textJSON)))
        if let action = sp.action {
            o.set("action", action.isDefined ? .string(action.description) : .int(Int64(action.rawValue)))
        }
        o.set("size", sp.size.map { JSONValue.int(Int64($0)) })
        o.set("type", sp.type)
        o.set(
            "icons",
            .array(
                sp.icons.map { icon in
                    var i = JSONObjectBuilder()
                    i.set("type", icon.mimeType)
                    i.set("data", Hex.encode(icon.data))
                    return i.value
                }))
        // Nested records of other types, which a poster may carry (Smart Poster RTD 1.0 §3):
        // without them an encode of this JSON would drop them.
        if !sp.otherRecords.isEmpty { o.set("otherRecords", .array(sp.otherRecords.map(genericRecordJSON))) }
        return o.value
    }

    package static func deviceInformationJSON(_ di: DeviceInformationRecord) -> JSONValue {
        var o = JSONObjectBuilder()
        o.set("manufacturer", di.manufacturer)
        o.set("model", di.model)
        o.set("deviceName", di.deviceName)
        o.set("uuid", di.uuidString)
        o.set("firmwareVersion", di.firmwareVersion)
        o.set(
            "other",
            .array(
                di.otherElements.map { e in
                    var x = JSONObjectBuilder()
                    x.set("tag", Int(e.tag))
                    x.set("value", Hex.encode(e.value))
                    return x.value
                }))
        return o.value
    }

    package static func signatureJSON(_ s: SignatureRecord) -> JSONValue {
        var o = JSONObjectBuilder()
        o.set("version", Int(s.version))
        o.set("signatureType", Int(s.signatureType))
        o.set("hashType", Int(s.hashType))
        o.set("signature", Hex.encode(s.signature))
        o.set("signatureURI", s.signatureURI)
        o.set("certificateFormat", Int(s.certificateFormat))
        o.set("certificates", .array(s.certificates.map { .string(Hex.encode($0)) }))
        o.set("certificateURI", s.certificateURI)
        return o.value
    }

    /// `{"error": {"code", "offset"?, "record"?, "reason"}}` for a message that did not decode.
    public static func errorJSON(_ error: NDEFError) -> JSONValue {
        var e = JSONObjectBuilder()
        e.set("code", error.code.name)
        e.set("offset", error.offset)
        e.set("record", error.recordIndex)
        e.set("reason", error.reason)
        return .object([("error", e.value)])
    }
}
