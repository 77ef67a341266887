import NDEF
import NFCBytes

/// Why a JSON value could not be turned into a typed record value.
struct TypedJSONError: Error, CustomStringConvertible {
    /// Where in the JSON (e.g. `handoverSelect.alternativeCarriers[0].powerState`).
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}

/// Reading helpers for the typed-record JSON mappings.
struct JSONReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String) throws(TypedJSONError) {
        guard case .object = value else { throw TypedJSONError(path: path, reason: "expected an object") }
        self.value = value
        self.path = path
    }

    func fail(_ key: String, _ reason: String) -> TypedJSONError {
        TypedJSONError(path: "\(path).\(key)", reason: reason)
    }

    func has(_ key: String) -> Bool { value[key] != nil && value[key] != .null }

    func string(_ key: String) throws(TypedJSONError) -> String {
        guard let s = value[key]?.stringValue else { throw fail(key, "expected a string") }
        return s
    }
    func optionalString(_ key: String) throws(TypedJSONError) -> String? {
        has(key) ? try string(key) : nil
    }
    func int<T: FixedWidthInteger>(_ key: String, as: T.Type = T.self) throws(TypedJSONError) -> T {
        guard let i = value[key]?.intValue, let v = T(exactly: i) else {
            throw fail(key, "expected an integer in \(T.min)...\(T.max)")
        }
        return v
    }
    func optionalInt<T: FixedWidthInteger>(_ key: String, as: T.Type = T.self) throws(TypedJSONError) -> T? {
        has(key) ? try int(key, as: T.self) : nil
    }
    func bool(_ key: String) throws(TypedJSONError) -> Bool {
        guard let b = value[key]?.boolValue else { throw fail(key, "expected true or false") }
        return b
    }
    func hex(_ key: String) throws(TypedJSONError) -> [UInt8] {
        do { return try Hex.decode(try string(key)) } catch let error as HexError {
            throw fail(key, "\(error)")
        } catch { throw fail(key, "\(error)") }
    }
    func optionalHex(_ key: String) throws(TypedJSONError) -> [UInt8]? {
        has(key) ? try hex(key) : nil
    }
    func array(_ key: String) throws(TypedJSONError) -> [JSONValue] {
        guard let a = value[key]?.arrayValue else { throw fail(key, "expected an array") }
        return a
    }
    func optionalArray(_ key: String) throws(TypedJSONError) -> [JSONValue] {
        has(key) ? try array(key) : []
    }
    func object(_ key: String) throws(TypedJSONError) -> JSONReader {
        guard let v = value[key] else { throw fail(key, "missing") }
        return try JSONReader(v, path: "\(path).\(key)")
    }
    /// Bytes written one character per byte (U+0000–U+00FF), as the JSON form writes `type` and `id`.
    func latin1(_ key: String) throws(TypedJSONError) -> [UInt8] {
        guard let bytes = latin1Bytes(try string(key)) else {
            throw fail(key, "characters above U+00FF cannot be bytes")
        }
        return bytes
    }
}

/// Bytes as text, one character per byte (U+0000–U+00FF).
func latin1String(_ bytes: [UInt8]) -> String {
    var s = ""
    s.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
    return s
}

/// The bytes of one-character-per-byte text; nil when a character is above U+00FF.
func latin1Bytes(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
        guard scalar.value <= 0xFF else { return nil }
        out.append(UInt8(truncatingIfNeeded: scalar.value))
    }
    return out
}

/// UTF-8 text if the bytes are valid UTF-8, else nil.
func utf8Text(_ bytes: [UInt8]) -> String? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var s = ""
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let v): s.unicodeScalars.append(v)
        case .emptyInput: return s
        case .error: return nil
        }
    }
}

/// A nested record in the generic JSON form: `tnf`, `type`, `id`, `payload`.
func genericRecordJSON(_ record: NDEFRecord) -> JSONValue {
    var o = JSONObjectBuilder()
    o.set("tnf", record.typeNameFormat.description)
    o.set("type", latin1String(record.type))
    o.set("id", latin1String(record.identifier))
    o.set("payload", Hex.encode(record.payload))
    return o.value
}

/// Reads the generic JSON form of a nested record.
func genericRecord(json: JSONValue, path: String) throws(TypedJSONError) -> NDEFRecord {
    let r = try JSONReader(json, path: path)
    let tnfName = try r.string("tnf")
    guard let tnf = NDEFTypeNameFormat(name: tnfName) else { throw r.fail("tnf", "unknown TNF \"\(tnfName)\"") }
    return NDEFRecord(
        typeNameFormat: tnf, type: r.has("type") ? try r.latin1("type") : [],
        identifier: r.has("id") ? try r.latin1("id") : [], payload: r.has("payload") ? try r.hex("payload") : [])
}
