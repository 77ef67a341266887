import NDEF
import NFCJSON

extension NDEFJSON {
    /// Checks encoded bytes as a reader would: decoded again with the strict decoder, and every
    /// record through its typed view, so that nothing built from JSON (or from the `nfc` tool's
    /// options) is written when a reader, ours included, would reject it — an empty language
    /// code, a URI with control characters or without a scheme, a message over the decoder's
    /// size limit.
    /// - Throws: ``NDEFJSONError/Code-swift.struct/unreadable``, with the decoder's offset or the
    ///   record's path.
    public static func verify(_ bytes: [UInt8]) throws(NDEFJSONError) {
        let message: NDEFMessage
        do {
            message = try NDEFMessage(decoding: bytes)
        } catch {
            throw NDEFJSONError(.unreadable, offset: error.offset, "the message would not read back: \(error)")
        }
        for (index, record) in message.records.enumerated() {
            if case .invalid(let reason)? = connectivityJSONField(record, options: .strict) {
                throw NDEFJSONError(.unreadable, path: "$.records[\(index)]", "record \(index) would not read back: \(reason)")
            }
            do {
                _ = try record.typed(options: .strict)
            } catch {
                throw NDEFJSONError(.unreadable, path: "$.records[\(index)]", "record \(index) would not read back: \(error)")
            }
        }
    }
}

/// The keys of the JSON form, for rejecting the ones it does not have.
enum NDEFJSONKeys {

    /// Every key of the JSON input that the form does not have (a misspelt `"langauge"`, say) is
    /// an error with its path. Each object of the form has its own keys (docs/ndef-json.md); a
    /// record may also carry the connectivity field its rendering has (`handoverSelect`,
    /// `wifiSimpleConfig`, …), whose inside its own parser checks.
    static func rejectUnknownKeys(_ input: JSONValue, message: NDEFMessage) throws(NDEFJSONError) {
        guard case .object = input else { return }
        try check(input, allowed: topLevelKeys, path: "$")
        guard let records = input["records"]?.arrayValue else { return }
        for (index, (given, record)) in zip(records, message.records).enumerated() {
            var allowed = recordKeys
            if case .object(let rendered) = NDEFJSON.json(for: record, options: .strict) { allowed.formUnion(rendered.map(\.0)) }
            let path = "$.records[\(index)]"
            try check(given, allowed: allowed, path: path)
            for (key, keys) in nestedKeys {
                guard let nested = given[key] else { continue }
                try check(nested, allowed: keys, path: "\(path).\(key)")
                for (arrayKey, itemKeys) in nestedArrays[key] ?? [:] {
                    for (item, value) in (nested[arrayKey]?.arrayValue ?? []).enumerated() {
                        try check(value, allowed: itemKeys, path: "\(path).\(key).\(arrayKey)[\(item)]")
                    }
                }
            }
        }
    }

    static let topLevelKeys: Set<String> = ["records", "length", "status", "stats"]
    /// A record's own keys, input and output (`invalid` is what reading prints for a bad record).
    static let recordKeys: Set<String> = [
        "tnf", "type", "id", "payload", "uri", "text", "language", "encoding", "smartPoster", "deviceInformation",
        "signature", "external", "mimeType", "invalid",
    ]
    static let nestedKeys: [String: Set<String>] = [
        "smartPoster": ["uri", "titles", "action", "size", "type", "icons", "otherRecords"],
        "deviceInformation": ["manufacturer", "model", "deviceName", "uuid", "firmwareVersion", "other"],
        "signature": [
            "version", "signatureType", "hashType", "signature", "signatureURI", "certificateFormat", "certificates", "certificateURI",
        ],
        "external": ["domain", "type"],
    ]
    static let nestedArrays: [String: [String: Set<String>]] = [
        "smartPoster": [
            "titles": ["text", "language", "encoding"], "icons": ["type", "data"], "otherRecords": ["tnf", "type", "id", "payload"],
        ],
        "deviceInformation": ["other": ["tag", "value"]],
    ]

    private static func check(_ value: JSONValue, allowed: Set<String>, path: String) throws(NDEFJSONError) {
        guard case .object(let members) = value else { return }
        for (key, _) in members where !allowed.contains(key) {
            throw NDEFJSONError(
                .unknownKey, path: "\(path).\(key)", "unknown key (known here: \(allowed.sorted().joined(separator: ", ")))")
        }
    }
}
