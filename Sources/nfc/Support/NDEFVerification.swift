import NDEF

/// What `nfc ndef encode` and `nfc write` produce must read back: every message they emit is
/// decoded again with the strict decoder, and every record through its typed view, so the tool
/// never writes bytes a reader (ours included) would reject — an empty language code, a URI
/// with control characters or without a scheme, a message over the decoder's size limit.
enum NDEFVerification {
    /// Checks `bytes` as a reader would; throws a bad-input error naming the record and offset.
    static func verify(_ bytes: [UInt8]) throws {
        let message: NDEFMessage
        do {
            message = try NDEFMessage(decoding: bytes)
        } catch {
            throw CLIError(.badInput, "the message would not read back: \(error)", offset: error.offset)
        }
        for (index, record) in message.records.enumerated() {
            if case .invalid(let reason)? = connectivityJSONField(record, options: .strict) {
                throw CLIError(.badInput, "record \(index) would not read back: \(reason)", field: "records[\(index)]")
            }
            do {
                _ = try record.typed(options: .strict)
            } catch {
                throw CLIError(.badInput, "record \(index) would not read back: \(error)", field: "records[\(index)]")
            }
        }
    }

    /// Every key of the JSON input that the message does not use (a misspelt `"langauge"`, say) is
    /// an error with its path: the keys a record's JSON may hold are those its own rendering has.
    static func rejectUnknownKeys(_ input: JSONValue, message: NDEFMessage) throws {
        guard case .object(let top) = input else { return }
        let topLevel: Set<String> = ["records", "length", "status", "stats"]
        for (key, _) in top where !topLevel.contains(key) {
            throw CLIError(.badInput, "$.\(key): unknown key (known here: records)", field: "$.\(key)")
        }
        guard let records = input["records"]?.arrayValue else { return }
        for (index, (given, record)) in zip(records, message.records).enumerated() {
            try compare(given, NDEFJSON.json(for: record, options: .strict), path: "$.records[\(index)]")
        }
    }

    private static func compare(_ given: JSONValue, _ rendered: JSONValue, path: String) throws {
        switch (given, rendered) {
        case (.object(let members), .object(let known)):
            let names = known.map(\.0)
            for (key, value) in members where value != .null {
                guard let match = known.first(where: { $0.0 == key }) else {
                    throw CLIError(.badInput, "\(path).\(key): unknown key (known here: \(names.joined(separator: ", ")))", field: "\(path).\(key)")
                }
                try compare(value, match.1, path: "\(path).\(key)")
            }
        case (.array(let items), .array(let known)) where items.count == known.count:
            for (index, (item, match)) in zip(items, known).enumerated() {
                try compare(item, match, path: "\(path)[\(index)]")
            }
        default:
            return
        }
    }
}
