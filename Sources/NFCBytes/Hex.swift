/// Errors from ``Hex/decode(_:)``.
public struct HexError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        public var description: String { name }

        /// A character that is neither a hex digit nor an allowed separator.
        public static let invalidCharacter = Code("invalidCharacter")
        /// An odd number of hex digits: the last byte is incomplete.
        public static let oddDigitCount = Code("oddDigitCount")
    }

    /// What went wrong.
    public let code: Code
    /// The offending character (``Code-swift.struct/invalidCharacter``).
    public let character: Character?
    /// The character offset of the offending character, or the number of digits
    /// (``Code-swift.struct/oddDigitCount``).
    public let offset: Int

    /// A character that is neither a hex digit nor an allowed separator, at a character offset.
    public static func invalidCharacter(_ character: Character, at offset: Int) -> HexError {
        HexError(code: .invalidCharacter, character: character, offset: offset)
    }

    /// An odd number of hex digits.
    public static func oddDigitCount(_ count: Int) -> HexError {
        HexError(code: .oddDigitCount, character: nil, offset: count)
    }

    /// The text for people.
    public var description: String {
        if code == .invalidCharacter, let character {
            return "invalid hex character \(String(reflecting: String(character))) at offset \(offset)"
        }
        return "odd number of hex digits (\(offset)): the last byte is incomplete"
    }
}

/// Hexadecimal encoding and decoding of byte strings.
public enum Hex {
    private static let lower: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upper: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Encodes bytes as hex digits, optionally upper-case and with a separator between bytes.
    public static func encode<S: Sequence>(
        _ bytes: S, uppercase: Bool = false, separator: String = ""
    ) -> String where S.Element == UInt8 {
        let digits = uppercase ? upper : lower
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * (2 + separator.utf8.count))
        let sep = Array(separator.utf8)
        var first = true
        for b in bytes {
            if !first { out.append(contentsOf: sep) }
            first = false
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex digits into bytes.
    ///
    /// ASCII white space and the separators `:` and `-` between digits are ignored, and a single
    /// leading `0x` is allowed, so `D1 01`, `d1:01` and `0xD101` all decode to `[0xD1, 0x01]`.
    public static func decode(_ text: String) throws(HexError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var digits = 0
        var utf8 = Substring(text).utf8[...]
        if utf8.starts(with: "0x".utf8) || utf8.starts(with: "0X".utf8) {
            utf8 = utf8.dropFirst(2)
        }
        var position = text.utf8.count - utf8.count
        for c in utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                UInt8(ascii: ":"), UInt8(ascii: "-"):
                position += 1
                continue
            default:
                let index = text.utf8.index(text.utf8.startIndex, offsetBy: position)
                let character = text[index...].first ?? "?"
                throw .invalidCharacter(character, at: position)
            }
            position += 1
            digits += 1
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        if high != nil { throw .oddDigitCount(digits) }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Creates bytes from hex digits (see ``Hex/decode(_:)``).
    public init(hex: String) throws(HexError) {
        self = try Hex.decode(hex)
    }

    /// The bytes as lower-case hex digits.
    public var hexString: String { Hex.encode(self) }
}
