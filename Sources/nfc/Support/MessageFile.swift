import NDEF
import NDEFJSON
import NFCBytes

/// `--message FILE`: a whole NDEF message from a file (`-` for standard input), on `write`,
/// `ndef encode`, `ndef decode` and `dispatch`, in any of the three forms the tool writes.
///
/// The form is told from the content, and cannot be mistaken for a message: the first byte of a
/// binary NDEF message has its MB flag set (NFC Forum NDEF 1.0 §3.2.1), so it is never ASCII,
/// while JSON starts with `{` or `[` and hex text holds only hex digits and separators.
enum MessageFile {
    /// The forms a message file may take.
    enum Form: String, Sendable {
        /// The encoded bytes, as `nfc ndef encode -o` writes them.
        case binary
        /// The encoded bytes as hex text, as `nfc ndef encode` prints them.
        case hex
        /// The JSON form (docs/ndef-json.md), as `nfc read --json` and `nfc ndef decode --json` print it.
        case json
    }

    /// The form of `content`: JSON when its first non-blank character is `{` or `[`, hex when it
    /// holds only hex digits and separators, binary otherwise.
    static func form(of content: [UInt8]) -> Form {
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let first = content.first { !blank.contains($0) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return .json }
        if Input.looksLikeHex(content) { return .hex }
        return .binary
    }

    /// The encoded message in `path` (`-`: standard input), with the form it was in. JSON is
    /// encoded here; binary and hex come back as given, for the caller to decode or check.
    static func read(_ path: String) throws -> (bytes: [UInt8], form: Form) {
        let source = path == "-" ? "standard input" : path
        let content = path == "-" ? Input.readStandardInput() : try Input.readFile(path)
        guard content.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw CLIError(.badInput, "\(source) is empty: no NDEF message in it", file: path == "-" ? nil : path)
        }
        let form = form(of: content)
        switch form {
        case .binary:
            return (content, form)
        case .hex:
            return (try Input.hex(String(decoding: content, as: UTF8.self), what: source), form)
        case .json:
            let message = try NDEFJSONFile.message(content, source: source)
            do {
                return (try message.encoded(), form)
            } catch {
                throw CLIError(.badInput, "cannot encode the message in \(source): \(error)")
            }
        }
    }
}
