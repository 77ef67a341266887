import NDEF
import NFCBytes
import NFCJSON

// JSON form of Wi-Fi Simple Configuration records (docs/ndef-json.md, "## Wi-Fi Simple Configuration").

private func versionString(_ byte: UInt8) -> String { "\(byte >> 4).\(byte & 0x0F)" }

private func versionByte(_ r: JSONReader, _ key: String) throws(TypedJSONError) -> UInt8? {
    guard let text = try r.optionalString(key) else { return nil }
    guard let version = HandoverVersion(string: text) else {
        throw r.fail(key, "expected \"major.minor\" with parts 0...15, got \"\(text)\"")
    }
    return version.rawValue
}

private func flagNames<T: OptionSet>(_ value: T, _ names: [(T, String)]) -> JSONValue where T.RawValue == UInt16, T.Element == T {
    var remaining = value.rawValue
    var out: [JSONValue] = []
    for (flag, name) in names where value.contains(flag) {
        out.append(.string(name))
        remaining &= ~flag.rawValue
    }
    if remaining != 0 {
        out.append(
            .string("0x" + Hex.encode([UInt8(truncatingIfNeeded: remaining >> 8), UInt8(truncatingIfNeeded: remaining)], uppercase: true)))
    }
    return .array(out)
}

private func readFlags<T: OptionSet>(_ r: JSONReader, _ key: String, _ names: [(T, String)]) throws(TypedJSONError) -> T
where T.RawValue == UInt16 {
    var raw: UInt16 = 0
    for (i, item) in try r.array(key).enumerated() {
        guard let text = item.stringValue else { throw r.fail("\(key)[\(i)]", "expected a string") }
        if let match = names.first(where: { $0.1 == text }) {
            raw |= match.0.rawValue
        } else if text.hasPrefix("0x"), let value = UInt16(text.dropFirst(2), radix: 16) {
            raw |= value
        } else {
            throw r.fail("\(key)[\(i)]", "unknown flag \"\(text)\"")
        }
    }
    return T(rawValue: raw)
}

extension WiFiSimpleConfiguration.Credential {
    /// `{"networkIndex", "ssid", "ssidHex", "authenticationType": [...], "encryptionType": [...],
    /// "networkKey", "networkKeyHex", "macAddress", "networkKeyShareable", "attributes"}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        o.set("networkIndex", networkIndex.map(Int.init))
        if let ssid {
            o.set("ssid", utf8Text(ssid))
            o.set("ssidHex", Hex.encode(ssid))
        }
        o.set("authenticationType", authenticationType.map { flagNames($0, WiFiSimpleConfiguration.AuthenticationType.names) })
        o.set("encryptionType", encryptionType.map { flagNames($0, WiFiSimpleConfiguration.EncryptionType.names) })
        if let networkKey {
            o.set("networkKey", utf8Text(networkKey))
            o.set("networkKeyHex", Hex.encode(networkKey))
        }
        o.set("macAddress", macAddress.map { Hex.encode($0, uppercase: true, separator: ":") })
        o.set("networkKeyShareable", networkKeyShareable)
        o.set("attributes", wscAttributesJSON(attributes))
        return o.value
    }

    /// Reads `attributes` when present (lossless); otherwise builds a credential from the fields.
    package init(json: JSONValue, path: String) throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        if r.has("attributes") {
            self.init(attributes: try wscAttributes(r))
            return
        }
        let ssid: [UInt8]
        if let hex = try r.optionalHex("ssidHex") { ssid = hex } else { ssid = Array(try r.string("ssid").utf8) }
        var key: [UInt8] = []
        if let hex = try r.optionalHex("networkKeyHex") {
            key = hex
        } else if let text = try r.optionalString("networkKey") {
            key = Array(text.utf8)
        }
        var mac: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        if let text = try r.optionalString("macAddress") {
            guard let bytes = try? Hex.decode(text), bytes.count == 6 else {
                throw r.fail("macAddress", "expected six bytes like \"FF:FF:FF:FF:FF:FF\"")
            }
            mac = bytes
        }
        let index: UInt8 = try r.optionalInt("networkIndex") ?? 1
        let auth = try readFlags(r, "authenticationType", WiFiSimpleConfiguration.AuthenticationType.names)
        let enc = try readFlags(r, "encryptionType", WiFiSimpleConfiguration.EncryptionType.names)
        let shareable = r.has("networkKeyShareable") ? try r.bool("networkKeyShareable") : nil
        do throws(NDEFError) {
            try self.init(
                networkIndex: index, ssid: ssid, authenticationType: auth, encryptionType: enc,
                networkKey: key, macAddress: mac, networkKeyShareable: shareable)
        } catch {
            throw TypedJSONError(path: path, reason: "\(error)")
        }
    }
}

/// `[{"type": number, "value": hex}]`, in order.
private func wscAttributesJSON(_ attributes: [WiFiSimpleConfiguration.Attribute]) -> JSONValue {
    .array(attributes.map { .object([("type", .int(Int64($0.type.rawValue))), ("value", .string(Hex.encode($0.value)))]) })
}

private func wscAttributes(_ r: JSONReader) throws(TypedJSONError) -> [WiFiSimpleConfiguration.Attribute] {
    var out: [WiFiSimpleConfiguration.Attribute] = []
    for (i, item) in try r.array("attributes").enumerated() {
        let a = try JSONReader(item, path: "\(r.path).attributes[\(i)]")
        out.append(.init(type: .init(rawValue: try a.int("type")), value: try a.hex("value")))
    }
    return out
}

extension WiFiSimpleConfiguration {
    /// `{"version": "1.0", "version2": "2.0", "credentials": [...], "attributes": [...]}`.
    package var json: JSONValue {
        var o = JSONObjectBuilder()
        if hasLengthPrefix { o.set("lengthPrefix", true) }
        o.set("version", version.map(versionString))
        o.set("version2", version2.map(versionString))
        o.set("credentials", .array(credentials.map(\.json)))
        o.set("attributes", wscAttributesJSON(attributes))
        return o.value
    }

    /// Reads `attributes` when present (lossless); otherwise builds the usual token from
    /// `credentials` and `version2` (default "2.0").
    package init(json: JSONValue, path: String = "wifiSimpleConfig") throws(TypedJSONError) {
        let r = try JSONReader(json, path: path)
        if r.has("attributes") {
            self.init(attributes: try wscAttributes(r), hasLengthPrefix: r.has("lengthPrefix") ? try r.bool("lengthPrefix") : false)
            return
        }
        var credentials: [Credential] = []
        for (i, item) in try r.array("credentials").enumerated() {
            credentials.append(try Credential(json: item, path: "\(path).credentials[\(i)]"))
        }
        let version2 = try versionByte(r, "version2") ?? 0x20
        do throws(NDEFError) {
            try self.init(credentials: credentials, version2: version2)
        } catch {
            throw TypedJSONError(path: path, reason: "\(error)")
        }
    }
}
