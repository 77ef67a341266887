/// Decodes one CTAP2 canonical CBOR item and rejects everything else (RFC 8949 §3, CTAP 2.1 §8):
/// truncated input, reserved additional information, indefinite lengths, integers and lengths
/// not in their shortest form, map keys out of canonical order or repeated, nesting beyond a
/// limit, invalid UTF-8, tags (unless allowed) and trailing bytes.
public struct CBORDecoder: Sendable {
    /// The deepest nesting of arrays, maps and tags accepted (the top-level item is depth 1).
    public var maximumDepth: Int
    /// Whether tagged items are accepted (CTAP2 canonical form has none).
    public var allowsTags: Bool

    /// CTAP 2.1 §8 asks authenticators for a depth of at least 4; 16 leaves room.
    public init(maximumDepth: Int = 16, allowsTags: Bool = false) {
        self.maximumDepth = maximumDepth
        self.allowsTags = allowsTags
    }

    /// Decodes exactly one item spanning all of `bytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        var reader = Reader(bytes: bytes, decoder: self)
        let item = try reader.item(depth: 1)
        if reader.offset != bytes.count {
            throw CBORError(.trailingBytes, at: reader.offset, "\(bytes.count - reader.offset) byte(s) after the item")
        }
        return item
    }

    /// Decodes one item at the start of `bytes` and returns it with the bytes it took (for
    /// structures that carry CBOR followed by other data, as authenticator data does).
    public func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (item: CBOR, length: Int) {
        var reader = Reader(bytes: bytes, decoder: self)
        let item = try reader.item(depth: 1)
        return (item, reader.offset)
    }

    private struct Reader {
        let bytes: [UInt8]
        let decoder: CBORDecoder
        var offset = 0

        mutating func byte(itemAt start: Int) throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw CBORError(.truncated, at: start, "the input ends inside this item") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64, itemAt start: Int) throws(CBORError) -> [UInt8] {
            guard count <= UInt64(bytes.count - offset) else {
                throw CBORError(.truncated, at: start, "the input ends inside this item")
            }
            let end = offset + Int(count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }

        /// The argument of an initial byte, checked for the shortest form.
        mutating func argument(_ ai: UInt8, itemAt start: Int) throws(CBORError) -> UInt64 {
            switch ai {
            case 0..<24: return UInt64(ai)
            case 24...27:
                let size = 1 << Int(ai - 24)
                var value: UInt64 = 0
                for byte in try take(UInt64(size), itemAt: start) { value = value << 8 | UInt64(byte) }
                let shortest: UInt64 =
                    switch ai {
                    case 24: 24
                    case 25: 0x100
                    case 26: 0x1_0000
                    default: 0x1_0000_0000
                    }
                guard value >= shortest else {
                    throw CBORError(.nonShortestInteger, at: start, "argument \(value) in \(size) bytes is not the shortest form")
                }
                return value
            case 31: throw CBORError(.indefiniteLength, at: start, "additional information 31 (indefinite length or break)")
            default: throw CBORError(.reservedAdditionalInfo, at: start, "reserved additional information \(ai)")
            }
        }

        mutating func item(depth: Int) throws(CBORError) -> CBOR {
            let start = offset
            let initial = try byte(itemAt: start)
            let major = initial >> 5
            let ai = initial & 0x1F
            if major == 7 { return try simpleOrFloat(ai, itemAt: start) }
            let argument = try argument(ai, itemAt: start)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(try take(argument, itemAt: start))
            case 3:
                let utf8 = try take(argument, itemAt: start)
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw CBORError(.invalidUTF8, at: start, "a text string that is not UTF-8")
                }
                return .text(text)
            case 4:
                guard depth <= decoder.maximumDepth else {
                    throw CBORError(.tooDeep, at: start, "nested deeper than \(decoder.maximumDepth) levels")
                }
                // Every item takes at least one byte: a larger count cannot be satisfied.
                guard argument <= UInt64(bytes.count - offset) else {
                    throw CBORError(.truncated, at: start, "the input ends inside this item")
                }
                var items: [CBOR] = []
                items.reserveCapacity(Int(argument))
                for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                guard depth <= decoder.maximumDepth else {
                    throw CBORError(.tooDeep, at: start, "nested deeper than \(decoder.maximumDepth) levels")
                }
                guard argument <= UInt64(bytes.count - offset) / 2 else {
                    throw CBORError(.truncated, at: start, "the input ends inside this item")
                }
                var map: [CBOR: CBOR] = [:]
                var previousKey: [UInt8]?
                for _ in 0..<argument {
                    let keyStart = offset
                    let key = try item(depth: depth + 1)
                    let keyBytes = Array(bytes[keyStart..<offset])
                    if let previousKey {
                        if previousKey == keyBytes { throw CBORError(.duplicateMapKey, at: keyStart, "this key appeared already") }
                        guard CBOR.canonicalOrder(previousKey, keyBytes) else {
                            throw CBORError(.unsortedMapKeys, at: keyStart, "this key sorts before the previous one")
                        }
                    }
                    previousKey = keyBytes
                    map[key] = try item(depth: depth + 1)
                }
                return .map(map)
            default:  // 6
                guard decoder.allowsTags else {
                    throw CBORError(.tagNotAllowed, at: start, "tag \(argument) (CTAP2 canonical form has no tags)")
                }
                guard depth <= decoder.maximumDepth else {
                    throw CBORError(.tooDeep, at: start, "nested deeper than \(decoder.maximumDepth) levels")
                }
                return .tagged(argument, try item(depth: depth + 1))
            }
        }

        mutating func simpleOrFloat(_ ai: UInt8, itemAt start: Int) throws(CBORError) -> CBOR {
            switch ai {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 0..<20: return .simple(ai)
            case 24:
                let value = try byte(itemAt: start)
                guard value >= 32 else { throw CBORError(.invalidSimpleValue, at: start, "simple value \(value) in the two-byte form") }
                return .simple(value)
            case 25:
                let raw = try take(2, itemAt: start)
                return .float(Self.halfToDouble(UInt16(raw[0]) << 8 | UInt16(raw[1])))
            case 26:
                var bits: UInt32 = 0
                for byte in try take(4, itemAt: start) { bits = bits << 8 | UInt32(byte) }
                return .float(Double(Float(bitPattern: bits)))
            case 27:
                var bits: UInt64 = 0
                for byte in try take(8, itemAt: start) { bits = bits << 8 | UInt64(byte) }
                return .float(Double(bitPattern: bits))
            case 31: throw CBORError(.indefiniteLength, at: start, "additional information 31 (indefinite length or break)")
            default: throw CBORError(.reservedAdditionalInfo, at: start, "reserved additional information \(ai)")
            }
        }

        /// IEEE 754 binary16 to Double (RFC 8949 Appendix D).
        static func halfToDouble(_ half: UInt16) -> Double {
            let exponent = Int(half >> 10 & 0x1F)
            let mantissa = Double(half & 0x3FF)
            let magnitude: Double =
                switch exponent {
                case 0: mantissa * 0x1p-24
                case 31: mantissa == 0 ? .infinity : .nan
                default: (1 + mantissa / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
                }
            return half & 0x8000 != 0 ? -magnitude : magnitude
        }
    }
}

extension CBOR {
    /// Decodes one CTAP2 canonical item with the default limits.
    public init(decoding bytes: [UInt8]) throws(CBORError) {
        self = try CBORDecoder().decode(bytes)
    }
}
