import NDEF
import NFCBytes
import NFCJSON

// JSON forms of the Connection Handover records (docs/ndef-json.md, "## Handover").
// References and carrier types use the one-character-per-byte text form of `type` and `id`.

extension HandoverVersion {
    package var json: JSONValue { .string(description) }

    package init(json reader: JSONReader, key: String = "version") throws(TypedJSONError) {
        let text = try reader.string(key)
        guard let version = HandoverVersion(string: text) else {
            throw reader.fail(key, "expected \"major.minor\" with parts 0...15, got \"\(text)\"")
        }
        self = version
    }
}

extension AlternativeCarrierRecord {
    /// `{"powerState", "carrierDataReference", "auxiliaryDataReferences"}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("powerState", powerState.description)
        o.set("carrierDataReference", latin1String(carrierDataReference))
        o.set("auxiliaryDataReferences", .array(auxiliaryDataReferences.map { .string(latin1String($0)) }))
        return o.value
    }

    package init(json: JSONValue, path: String = "alternativeCarrier") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        let name = try r.string("powerState")
        guard let state = CarrierPowerState(name: name) else {
            throw r.fail("powerState", "expected inactive, active, activating or unknown, got \"\(name)\"")
        }
        var aux: [[UInt8]] = []
        for (i, item) in try r.optionalArray("auxiliaryDataReferences").enumerated() {
            guard let text = item.stringValue, let bytes = latin1Bytes(text) else {
                throw r.fail("auxiliaryDataReferences[\(i)]", "expected a string of characters U+0000–U+00FF")
            }
            aux.append(bytes)
        }
        self.init(powerState: state, carrierDataReference: try r.latin1("carrierDataReference"), auxiliaryDataReferences: aux)
    }
}

extension CollisionResolutionRecord {
    /// `{"randomNumber": 0...65535}`.
    package var json: JSONValue { .object([("randomNumber", .int(Int64(randomNumber)))]) }

    package init(json: JSONValue, path: String = "collisionResolution") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        self.init(randomNumber: try r.int("randomNumber"))
    }
}

extension HandoverErrorRecord {
    /// `{"reason": n, "data": hex, "value": n}` (`value` only for reasons 1–3).
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("reason", Int(reason.rawValue))
        o.set("data", Hex.encode(data))
        o.set("value", value.map { JSONValue.int(Int64($0)) })
        return o.value
    }

    /// Reads `reason` and either `data` (hex) or `value` (a number, for reasons 1–3).
    package init(json: JSONValue, path: String = "handoverError") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        let reason = Reason(rawValue: try r.int("reason"))
        if let data = try r.optionalHex("data") {
            self.init(reason: reason, data: data)
        } else if let length = reason.dataLength {
            let value: UInt32 = try r.int("value")
            guard length == 4 || value <= 0xFF else { throw r.fail("value", "reason \(reason.rawValue) takes one byte") }
            let bytes = (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            self.init(reason: reason, data: bytes)
        } else {
            throw r.fail("data", "a reserved reason needs its data as hex")
        }
    }
}

extension HandoverCarrierRecord {
    /// `{"carrierTypeFormat", "carrierType", "carrierData"}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("carrierTypeFormat", carrierTypeFormat.description)
        o.set("carrierType", latin1String(carrierType))
        o.set("carrierData", Hex.encode(carrierData))
        return o.value
    }

    package init(json: JSONValue, path: String = "handoverCarrier") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        let name = try r.string("carrierTypeFormat")
        guard let format = NDEFTypeNameFormat(name: name) else {
            throw r.fail("carrierTypeFormat", "unknown TNF \"\(name)\"")
        }
        self.init(
            carrierTypeFormat: format, carrierType: try r.latin1("carrierType"),
            carrierData: try r.optionalHex("carrierData") ?? [])
    }
}

/// The parts every handover record (Hs, Hr, Hm, Hi) shares in JSON.
private func handoverCarriersJSON(_ carriers: [AlternativeCarrierRecord]) -> JSONValue {
    .array(carriers.map(\.json))
}

private func readCarriers(_ r: JSONReader) throws(TypedJSONError) -> [AlternativeCarrierRecord] {
    var carriers: [AlternativeCarrierRecord] = []
    for (i, item) in try r.optionalArray("alternativeCarriers").enumerated() {
        carriers.append(try AlternativeCarrierRecord(json: item, path: "\(r.path).alternativeCarriers[\(i)]"))
    }
    return carriers
}

private func readOtherRecords(_ r: JSONReader) throws(TypedJSONError) -> [NDEFRecord] {
    var records: [NDEFRecord] = []
    for (i, item) in try r.optionalArray("otherRecords").enumerated() {
        records.append(try genericRecord(json: item, path: "\(r.path).otherRecords[\(i)]"))
    }
    return records
}

extension HandoverSelectRecord {
    /// `{"version": "1.3", "alternativeCarriers": [...], "error": {...}, "otherRecords": [...]}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("version", version.json)
        o.set("alternativeCarriers", handoverCarriersJSON(alternativeCarriers))
        o.set("error", error?.json)
        o.set("otherRecords", .array(otherRecords.map(genericRecordJSON)))
        return o.value
    }

    package init(json: JSONValue, path: String = "handoverSelect") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        self.init(
            version: try HandoverVersion(json: r), alternativeCarriers: try readCarriers(r),
            error: r.has("error") ? try HandoverErrorRecord(json: try r.object("error").value, path: "\(path).error") : nil,
            otherRecords: try readOtherRecords(r))
    }
}

extension HandoverRequestRecord {
    /// `{"version", "collisionResolution": number, "alternativeCarriers", "otherRecords"}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("version", version.json)
        o.set("collisionResolution", collisionResolution.map { Int($0.randomNumber) })
        o.set("alternativeCarriers", handoverCarriersJSON(alternativeCarriers))
        o.set("otherRecords", .array(otherRecords.map(genericRecordJSON)))
        return o.value
    }

    package init(json: JSONValue, path: String = "handoverRequest") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        let random: UInt16? = try r.optionalInt("collisionResolution")
        self.init(
            version: try HandoverVersion(json: r), collisionResolution: random.map(CollisionResolutionRecord.init),
            alternativeCarriers: try readCarriers(r), otherRecords: try readOtherRecords(r))
    }
}

extension CarrierListHandoverRecord {
    /// `{"version", "alternativeCarriers", "otherRecords"}` (Hm and Hi share it).
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("version", version.json)
        o.set("alternativeCarriers", handoverCarriersJSON(alternativeCarriers))
        o.set("otherRecords", .array(otherRecords.map(genericRecordJSON)))
        return o.value
    }

    package init(json: JSONValue, path: String) throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        self.init(version: try HandoverVersion(json: r), alternativeCarriers: try readCarriers(r), otherRecords: try readOtherRecords(r))
    }
}
