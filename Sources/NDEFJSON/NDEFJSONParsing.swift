import NDEF
import NFCJSON

extension NDEFJSON {
    /// Builds the message a JSON value describes (docs/ndef-json.md), without the read-back
    /// check of ``message(parsing:)``.
    /// - Throws: ``NDEFJSONError/Code-swift.struct/invalidValue`` with the JSON path of the
    ///   value that cannot be used.
    public static func message(from json: JSONValue) throws(NDEFJSONError) -> NDEFMessage {
        do {
            return try buildMessage(from: json)
        } catch let error as NDEFJSONError {
            throw error
        } catch let error as TypedJSONError {
            throw NDEFJSONError(.invalidValue, path: error.path, error.reason)
        } catch let error as NDEFError {
            throw NDEFJSONError(.invalidValue, offset: error.offset, error.description)
        } catch {
            throw NDEFJSONError(.invalidValue, "\(error)")
        }
    }

    /// Parses JSON text into the message it describes, as `nfc ndef encode --message` and
    /// `nfc write --message` do: strict JSON, the form's shape, a message that reads back, and
    /// no key the form does not have.
    ///
    /// What would not read back is reported before unknown keys: a bad record renders as
    /// `invalid`, so its keys would otherwise look unknown.
    /// - Throws: ``NDEFJSONError`` — `invalidJSON` with the offset where the text stops being
    ///   JSON, `invalidValue` or `unknownKey` with a JSON path, `unreadable` with a record's path
    ///   or the decoder's offset.
    public static func message(parsing bytes: [UInt8]) throws(NDEFJSONError) -> NDEFMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw NDEFJSONError(.invalidJSON, offset: error.location?.offset, "not valid JSON: \(error)")
        }
        let message = try self.message(from: value)
        let encoded: [UInt8]
        do {
            encoded = try message.encoded()
        } catch {
            throw NDEFJSONError(.unreadable, offset: error.offset, "cannot encode: \(error)")
        }
        try verify(encoded)
        try NDEFJSONKeys.rejectUnknownKeys(value, message: message)
        return message
    }
}
