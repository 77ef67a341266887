import ArgumentParser
import NFCJSON
import NFCSimulator

/// A failure reported to the user: one line on standard error (or a JSON error object on
/// standard output under `--json`) and a documented exit status (README, "Exit statuses").
struct CLIError: Error, CustomStringConvertible {
    /// What kind of failure, each with its own exit status.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name printed in JSON errors.
        let name: String
        /// The process's exit status.
        let exitStatus: Int32
        var description: String { name }

        /// The tag or reader failed: no tag, the tag refused, a transport error, a negative answer.
        static let failure = Code(name: "failure", exitStatus: 1)
        /// Malformed input: a file, hex, JSON, image, message or configuration that cannot be used.
        static let badInput = Code(name: "badInput", exitStatus: 2)
        /// Something named does not exist: a file, a reader, a credential, an applet.
        static let notFound = Code(name: "notFound", exitStatus: 3)
        /// The user may not read or write a file.
        static let permission = Code(name: "permission", exitStatus: 4)
        /// The tag image is in use by another command for longer than this one waits.
        static let busy = Code(name: "busy", exitStatus: 5)
        /// A partial result: the output is printed, but part of what was asked could not be read.
        static let incomplete = Code(name: "incomplete", exitStatus: 6)
        /// Wrong options or arguments (ArgumentParser's own usage status).
        static let usage = Code(name: "usage", exitStatus: ExitCode.validationFailure.rawValue)

        static let all: [Code] = [.failure, .badInput, .notFound, .permission, .busy, .incomplete, .usage]
    }

    let code: Code
    let description: String
    /// Where, when the failure is in a file: the file, the field or JSON path, the byte offset.
    var file: String?
    var field: String?
    var offset: Int?

    init(_ description: String) {
        self.init(.failure, description)
    }

    init(_ code: Code, _ description: String, file: String? = nil, field: String? = nil, offset: Int? = nil) {
        self.code = code
        self.description = description
        self.file = file
        self.field = field
        self.offset = offset
    }

    /// A tag image that cannot be opened, loaded or saved, with the code its cause deserves.
    init(imageError error: TagImageError, path: String, doing: String? = nil) {
        let code: Code =
            switch error.code {
            case .notFound: .notFound
            case .permissionDenied: .permission
            case .busy: .busy
            case .io: .failure
            default: .badInput
            }
        let head = doing.map { "\($0) \(path)" } ?? path
        self.init(code, "\(head): \(error)", file: path, field: error.field.isEmpty ? nil : error.field, offset: error.offset)
    }

    /// The JSON error object: `{"error": {"code", "exitStatus", "message", "file"?, "field"?, "offset"?}}`.
    var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("code", .string(code.name)), ("exitStatus", .int(Int64(code.exitStatus))), ("message", .string(description)),
        ]
        if let file { fields.append(("file", .string(file))) }
        if let field { fields.append(("field", .string(field))) }
        if let offset { fields.append(("offset", .int(Int64(offset)))) }
        return .object([("error", .object(fields))])
    }
}
