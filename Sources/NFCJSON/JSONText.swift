/// A strict RFC 8259 JSON parser that keeps every value's location.
///
/// Refuses what RFC 8259 refuses (comments, trailing commas, single quotes, leading zeros,
/// unescaped control characters in strings, lone surrogates, text after the value), plus
/// duplicate member names (§4 leaves them undefined) and nesting deeper than `maximumDepth`.
public struct JSONText {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private let maximumDepth: Int

    /// Parses a whole document.
    /// - Throws: ``JSONError`` `.syntax` or `.tooDeep`, with the location.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws(JSONError) -> JSONNode {
        var parser = JSONText(bytes: bytes, maximumDepth: maximumDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }  // a UTF-8 byte order mark (§8.1 allows ignoring it)
        parser.skipSpace()
        let node = try parser.parseValue()
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.fail("text after the JSON value") }
        return node
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private var location: JSONLocation {
        JSONLocation(offset: index, line: line, column: index - lineStart + 1)
    }

    private func fail(_ reason: String) -> JSONError {
        JSONError(.syntax, at: location, index >= bytes.count ? "\(reason) (the text ends early)" : reason)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            case 0x20, 0x09, 0x0D:
                index += 1
            default:
                return
            }
        }
    }

    private mutating func literal(_ word: String, _ value: JSONNode.Value, at start: JSONLocation) throws(JSONError) -> JSONNode {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(word)") }
            index += 1
        }
        return JSONNode(value, at: start)
    }

    private mutating func parseValue() throws(JSONError) -> JSONNode {
        let start = location
        guard index < bytes.count else { throw fail("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "n"): return try literal("null", .null, at: start)
        case UInt8(ascii: "t"): return try literal("true", .bool(true), at: start)
        case UInt8(ascii: "f"): return try literal("false", .bool(false), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "["): return try parseArray(at: start)
        case UInt8(ascii: "{"): return try parseObject(at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try parseNumber()), at: start)
        default: throw fail("expected a value")
        }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= maximumDepth else { throw JSONError(.tooDeep, at: location, "nesting deeper than \(maximumDepth) levels") }
    }

    private mutating func parseArray(at start: JSONLocation) throws(JSONError) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONNode] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(.array(items), at: start)
        }
        while true {
            skipSpace()
            items.append(try parseValue())
            skipSpace()
            guard index < bytes.count else { throw fail("unterminated array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return JSONNode(.array(items), at: start)
            default: throw fail("expected , or ] in an array")
            }
        }
    }

    private mutating func parseObject(at start: JSONLocation) throws(JSONError) -> JSONNode {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(String, JSONNode)] = []
        var names: Set<String> = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(.object(members), at: start)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let nameLocation = location
            let name = try parseString()
            let repeated = members.count < 16 ? members.contains { $0.0 == name } : !names.insert(name).inserted
            if members.count == 15 { names = Set(members.map(\.0) + [name]) }
            guard !repeated else {
                throw JSONError(.syntax, at: nameLocation, "the member \"\(name)\" appears twice")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected : after a member name") }
            index += 1
            skipSpace()
            members.append((name, try parseValue()))
            skipSpace()
            guard index < bytes.count else { throw fail("unterminated object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return JSONNode(.object(members), at: start)
            default: throw fail("expected , or } in an object")
            }
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as written.
    private mutating func parseNumber() throws(JSONError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONText) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        guard index < bytes.count else { throw fail("expected digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw fail("a number cannot start with 0")
            }
        } else if digits(&self) == 0 {
            throw fail("expected digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// RFC 8259 §7; the text must be UTF-8 (§8.1).
    private mutating func parseString() throws(JSONError) -> String {
        index += 1
        // Fast path: a run without escapes or control characters, validated as UTF-8 in one go.
        let start = index
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else { throw fail("a string that is not UTF-8") }
            index += 1
            return text
        }
        index = end
        var out = Array(bytes[start..<end])
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone high surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate without its low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("a lone low surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("an unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0x00...0x1F:
                throw fail("a control character inside a string (escape it)")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("a \\u escape needs 4 hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("a \\u escape needs 4 hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
