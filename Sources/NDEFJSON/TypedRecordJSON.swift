import NDEF
import NFCBytes
import NFCJSON

/// Why a JSON value could not be turned into a typed record value.
package struct TypedJSONError: Error, CustomStringConvertible {
    /// Where in the JSON (e.g. `handoverSelect.alternativeCarriers[0].powerState`).
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }
}

/// Reading helpers for the typed-record JSON mappings.
package struct JSONReader {
    package let value: JSONValue
    package let path: String

    package init(_ value: JSONValue, path: String) throws(TypedJSONError) {
        guard case .object = value else { throw TypedJSONError(path: path, reason: "expected an object") }
        self.value = value
        self.path = path
    }

    package func fail(_ key: String, _ reason: String) -> TypedJSONError {
        TypedJSONError(path: "\(path).\(key)", reason: reason)
    }

    package func has(_ key: String) -> Bool { value[key] != nil && value[key] != .null }

    package func string(_ key: String) throws(TypedJSONError) -> String {
        guard let s = value[key]?.stringValue else { throw fail(key, "expected a string") }
        return s
    }
    package func optionalString(_ key: String) throws(TypedJSONError) -> String? {
        has(key) ? try string(key) : nil
    }
    package func int<T: FixedWidthInteger>(_ key: String, as: T.Type = T.self) throws(TypedJSONError) -> T {
        guard let i = value[key]?.intValue, let v = T(exactly: i) else {
            throw fail(key, "expected an integer in \(T.min)...\(T.max)")
        }
        return v
    }
    package func optionalInt<T: FixedWidthInteger>(_ key: String, as: T.Type = T.self) throws(TypedJSONError) -> T? {
        has(key) ? try int(key, as: T.self) : nil
    }
    package func bool(_ key: String) throws(TypedJSONError) -> Bool {
        guard let b = value[key]?.boolValue else { throw fail(key, "expected true or false") }
        return b
    }
    package func hex(_ key: String) throws(TypedJSONError) -> [UInt8] {
        do { return try Hex.decode(try string(key)) } catch let error as HexError {
            throw fail(key, "\(error)")
        } catch { throw fail(key, "\(error)") }
    }
    package func optionalHex(_ key: String) throws(TypedJSONError) -> [UInt8]? {
        has(key) ? try hex(key) : nil
    }
    package func array(_ key: String) throws(TypedJSONError) -> [JSONValue] {
        guard let a = value[key]?.arrayValue else { throw fail(key, "expected an array") }
        return a
    }
    package func optionalArray(_ key: String) throws(TypedJSONError) -> [JSONValue] {
        has(key) ? try array(key) : []
    }
    package func object(_ key: String) throws(TypedJSONError) -> JSONReader {
        guard let v = value[key] else { throw fail(key, "missing") }
        return try JSONReader(v, path: "\(path).\(key)")
    }
    /// Bytes written one character per byte (U+0000–U+00FF), as the JSON form writes `type` and `id`.
    package func latin1(_ key: String) throws(TypedJSONError) -> [UInt8] {
        guard let bytes = latin1Bytes(try string(key)) else {
            throw fail(key, "characters above U+00FF cannot be bytes")
        }
        return bytes
    }
}

/// Bytes as text, one character per byte (U+0000–U+00FF).
package func latin1String(_ bytes: [UInt8]) -> String { NDEFRecord.latin1String(bytes) }

/// The bytes of one-character-per-byte text; nil when a character is above U+00FF.
package func latin1Bytes(_ text: String) -> [UInt8]? { NDEFRecord.latin1Bytes(text) }

/// UTF-8 text if the bytes are valid UTF-8, else nil.
package func utf8Text(_ bytes: [UInt8]) -> String? { UTF8Text.validated(bytes) }

/// A nested record in the generic JSON form: `tnf`, `type`, `id`, `payload`.
package func genericRecordJSON(_ record: NDEFRecord) -> JSONValue {
    var o = JSONObjectBuilder()
    o.set("tnf", record.typeNameFormat.description)
    o.set("type", latin1String(record.type))
    o.set("id", latin1String(record.identifier))
    o.set("payload", Hex.encode(record.payload))
    return o.value
}

/// Reads the generic JSON form of a nested record.
package func genericRecord(json: JSONValue, path: String) throws(TypedJSONError) -> NDEFRecord {
    let r = try JSONReader(json, path: path)
    let tnfName = try r.string("tnf")
    guard let tnf = NDEFTypeNameFormat(name: tnfName) else { throw r.fail("tnf", "unknown TNF \"\(tnfName)\"") }
    return NDEFRecord(
        typeNameFormat: tnf, type: r.has("type") ? try r.latin1("type") : [],
        identifier: r.has("id") ? try r.latin1("id") : [], payload: r.has("payload") ? try r.hex("payload") : [])
}

/// The typed JSON field of a Handover, Wi-Fi or Bluetooth record, for `decode --json`.
package enum ConnectivityJSONField {
    /// The key (`handoverSelect`, `wifiSimpleConfig`, …) and its value.
    case typed(String, JSONValue)
    /// The record has one of these types but its payload breaks the type's definition.
    case invalid(String)
}

/// The typed field for `record` if it is a Handover, Wi-Fi Simple Configuration or Bluetooth
/// OOB record; nil for other record types.
package func connectivityJSONField(_ record: NDEFRecord, options: NDEFDecodingOptions = .strict) -> ConnectivityJSONField? {
    func field(_ key: String, _ body: () throws(NDEFError) -> JSONValue) -> ConnectivityJSONField {
        do { return .typed(key, try body()) } catch { return .invalid("\(error)") }
    }
    switch record.typeNameFormat {
    case .wellKnown:
        switch record.typeString {
        case "Hs": return field("handoverSelect") { () throws(NDEFError) in try HandoverSelectRecord(record, options: options).json }
        case "Hr": return field("handoverRequest") { () throws(NDEFError) in try HandoverRequestRecord(record, options: options).json }
        case "Hm": return field("handoverMediation") { () throws(NDEFError) in try HandoverMediationRecord(record, options: options).json }
        case "Hi": return field("handoverInitiate") { () throws(NDEFError) in try HandoverInitiateRecord(record, options: options).json }
        case "Hc": return field("handoverCarrier") { () throws(NDEFError) in try HandoverCarrierRecord(record, options: options).json }
        case "ac":
            return field("alternativeCarrier") { () throws(NDEFError) in try AlternativeCarrierRecord(record, options: options).json }
        case "cr":
            return field("collisionResolution") { () throws(NDEFError) in try CollisionResolutionRecord(record, options: options).json }
        case "err": return field("handoverError") { () throws(NDEFError) in try HandoverErrorRecord(record, options: options).json }
        default: return nil
        }
    case .media:
        switch record.typeString {
        case WiFiSimpleConfiguration.mimeType:
            return field("wifiSimpleConfig") { () throws(NDEFError) in try WiFiSimpleConfiguration(record, options: options).json }
        case BluetoothOOB.BREDR.mimeType:
            return field("bluetoothBREDR") { () throws(NDEFError) in try BluetoothOOB.BREDR(record, options: options).json }
        case BluetoothOOB.LowEnergy.mimeType:
            return field("bluetoothLE") { () throws(NDEFError) in try BluetoothOOB.LowEnergy(record, options: options).json }
        default: return nil
        }
    default:
        return nil
    }
}

/// Builds a record from the first Handover / Wi-Fi / Bluetooth key present in a JSON record
/// object (for `encode --json`), keeping its `id`; nil when none of those keys is present.
package func connectivityRecord(fromJSON object: JSONValue, path: String = "record") throws(TypedJSONError) -> NDEFRecord? {
    let r = try JSONReader(object, path: path)
    func build(_ key: String, _ make: (JSONValue, String) throws(TypedJSONError) -> any NDEFRecordConvertible)
        throws(TypedJSONError) -> NDEFRecord
    {
        guard let value = object[key] else { throw r.fail(key, "missing") }
        let typed = try make(value, "\(path).\(key)")
        let identifier: [UInt8] = r.has("id") ? try r.latin1("id") : []
        do throws(NDEFError) {
            var record = try typed.record()
            record.identifier = identifier
            return record
        } catch {
            throw r.fail(key, "\(error)")
        }
    }
    for key in r.value.objectKeys {
        switch key {
        case "handoverSelect": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverSelectRecord(json: v, path: p) }
        case "handoverRequest": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverRequestRecord(json: v, path: p) }
        case "handoverMediation": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverMediationRecord(json: v, path: p) }
        case "handoverInitiate": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverInitiateRecord(json: v, path: p) }
        case "handoverCarrier": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverCarrierRecord(json: v, path: p) }
        case "alternativeCarrier": return try build(key) { (v, p) throws(TypedJSONError) in try AlternativeCarrierRecord(json: v, path: p) }
        case "collisionResolution":
            return try build(key) { (v, p) throws(TypedJSONError) in try CollisionResolutionRecord(json: v, path: p) }
        case "handoverError": return try build(key) { (v, p) throws(TypedJSONError) in try HandoverErrorRecord(json: v, path: p) }
        case "wifiSimpleConfig": return try build(key) { (v, p) throws(TypedJSONError) in try WiFiSimpleConfiguration(json: v, path: p) }
        case "bluetoothBREDR": return try build(key) { (v, p) throws(TypedJSONError) in try BluetoothOOB.BREDR(json: v, path: p) }
        case "bluetoothLE": return try build(key) { (v, p) throws(TypedJSONError) in try BluetoothOOB.LowEnergy(json: v, path: p) }
        default: continue
        }
    }
    return nil
}
