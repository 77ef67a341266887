import NDEF
import NDEFJSON

/// A whole message in the JSON form, read from a file or a line (``NDEFJSON/message(parsing:)``),
/// every failure a bad-input ``CLIError`` naming the source and the JSON path or offset.
enum NDEFJSONFile {
    static func message(_ bytes: [UInt8], source: String) throws -> NDEFMessage {
        do {
            return try NDEFJSON.message(parsing: bytes)
        } catch {
            throw CLIError(.badInput, "\(source): \(error)", file: source, field: error.path, offset: error.offset)
        }
    }
}

/// ``NDEFJSON/verify(_:)`` as a bad-input ``CLIError``: what the tool writes must read back.
enum NDEFVerification {
    static func verify(_ bytes: [UInt8]) throws {
        do {
            try NDEFJSON.verify(bytes)
        } catch {
            throw CLIError(.badInput, error.description, field: error.path, offset: error.offset)
        }
    }
}
