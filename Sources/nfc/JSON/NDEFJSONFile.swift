import NDEF

/// A whole message in the JSON form, read from a file or a line: parsed, built, and checked for
/// keys it does not use, every failure a bad-input ``CLIError`` with the JSON path or offset.
enum NDEFJSONFile {
    static func message(_ bytes: [UInt8], source: String) throws -> NDEFMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw CLIError(.badInput, "\(source): not valid JSON: \(error)", file: source, offset: error.location?.offset)
        }
        let message: NDEFMessage
        do {
            message = try NDEFJSON.message(from: value)
        } catch let error as NDEFJSONError {
            throw CLIError(.badInput, "\(source): \(error)", file: source, field: error.path)
        } catch let error as NDEFError {
            throw CLIError(.badInput, "\(source): \(error)", file: source)
        } catch {
            throw CLIError(.badInput, "\(source): \(error)", file: source)
        }
        // What would not read back is said first: a bad record renders as "invalid", so its keys
        // would otherwise look unknown.
        do {
            try NDEFVerification.verify(try message.encoded())
        } catch let error as CLIError {
            throw CLIError(.badInput, "\(source): \(error.description)", file: source, field: error.field)
        } catch {
            throw CLIError(.badInput, "\(source): cannot encode: \(error)", file: source)
        }
        do {
            try NDEFVerification.rejectUnknownKeys(value, message: message)
        } catch let error as CLIError {
            throw CLIError(.badInput, "\(source): \(error.description)", file: source, field: error.field)
        }
        return message
    }
}
