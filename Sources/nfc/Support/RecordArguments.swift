import NDEF
import NFCBytes

/// Rebuilds the ordered list of records from `--uri`, `--text [--lang]`,
/// `--mime TYPE (--payload-file F | --payload-hex H)` and `--external TYPE (--payload-hex H | --payload-file F)`
/// options as they stand on the command line. The old payload spellings `--file` and `--hex`
/// still work for one release, each with a deprecation line.
///
/// ArgumentParser collects each repeated option into its own array and so loses the order between
/// different options; the order matters here (it is the order of the records), so it is read back
/// from the arguments ArgumentParser parsed and checked (``Invocation/arguments``), never from
/// the process's command line.
enum RecordArguments {
    static let recordOptions: Set<String> = [
        "--uri", "--text", "--lang", "--mime", "--external", "--payload-file", "--payload-hex", "--file", "--hex",
    ]
    /// The old payload spellings and what replaces them.
    static let deprecatedSpellings = ["--file": "--payload-file", "--hex": "--payload-hex"]

    /// A record spec before its payload is read.
    enum Spec: Equatable {
        case uri(String)
        case text(String, language: String)
        case mime(String, payload: Payload)
        case external(String, payload: Payload)
    }

    enum Payload: Equatable {
        case none
        case file(String)
        case hex(String)
    }

    /// Parses the option pairs in order.
    static func specs(from arguments: [String]) throws -> [Spec] {
        var pairs: [(String, String)] = []
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            if arg == "--" { break }
            if let eq = arg.firstIndex(of: "="), recordOptions.contains(String(arg[..<eq])) {
                pairs.append((String(arg[..<eq]), String(arg[arg.index(after: eq)...])))
            } else if recordOptions.contains(arg), i + 1 < arguments.count {
                pairs.append((arg, arguments[i + 1]))
                i += 1
            }
            i += 1
        }
        var specs: [Spec] = []
        for old in Set(pairs.map(\.0)).intersection(deprecatedSpellings.keys).sorted() {
            Output.deprecated(old, use: deprecatedSpellings[old] ?? old)
        }
        for (name, value) in pairs {
            switch name {
            case "--uri": specs.append(.uri(value))
            case "--text": specs.append(.text(value, language: "en"))
            case "--mime": specs.append(.mime(value, payload: .none))
            case "--external": specs.append(.external(value, payload: .none))
            case "--lang":
                guard case .text(let text, _)? = specs.last else {
                    throw CLIError(.usage, "--lang \(value) must follow the --text it applies to")
                }
                specs[specs.count - 1] = .text(text, language: value)
            case "--payload-file", "--payload-hex", "--file", "--hex":
                let payload: Payload = name.hasSuffix("file") ? .file(value) : .hex(value)
                switch specs.last {
                case .mime(let type, .none)?: specs[specs.count - 1] = .mime(type, payload: payload)
                case .external(let type, .none)?: specs[specs.count - 1] = .external(type, payload: payload)
                default:
                    throw CLIError(.usage, "\(name) \(value) must follow the --mime or --external it gives the payload of")
                }
            default: break
            }
        }
        return specs
    }

    /// Builds the records.
    static func records(from specs: [Spec]) throws -> [NDEFRecord] {
        do {
            return try buildRecords(specs)
        } catch let error as NDEFError {
            throw CLIError(.badInput, "cannot build the record: \(error)")
        }
    }

    private static func buildRecords(_ specs: [Spec]) throws -> [NDEFRecord] {
        try specs.map { spec in
            switch spec {
            case .uri(let uri):
                guard hasScheme(uri) else {
                    throw CLIError(
                        .badInput,
                        "--uri \(TerminalText.escape(uri)) has no scheme (RFC 3986 §3.1); did you mean https://\(TerminalText.escape(uri))?"
                    )
                }
                return try URIRecord(uri: uri).record()
            case .text(let text, let language):
                return try TextRecord(text: text, languageCode: language).record()
            case .mime(let type, let payload):
                return try MIMERecord(mimeType: type, data: try bytes(payload, for: "--mime \(type)")).record()
            case .external(let type, let payload):
                return try ExternalRecord(typeName: type, payload: try bytes(payload, for: "--external \(type)")).record()
            }
        }
    }

    /// Whether `uri` starts with a scheme: a letter, then letters, digits, `+`, `-` or `.`, then
    /// `:` (RFC 3986 §3.1). A bare `example.com` is a relative reference, not a URI a phone opens.
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":"), colon > uri.startIndex else { return false }
        let scheme = uri[..<colon].unicodeScalars
        guard let first = scheme.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    private static func bytes(_ payload: Payload, for what: String) throws -> [UInt8] {
        switch payload {
        case .none: throw CLIError(.usage, "\(what) needs its payload: --payload-file F or --payload-hex H")
        case .file(let path): return try Input.readFile(path)
        case .hex(let hex): return try Input.hex(hex, what: "--payload-hex")
        }
    }
}
