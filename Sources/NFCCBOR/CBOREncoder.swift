/// Encodes items in CTAP2 canonical form (CTAP 2.1 §8 "Message encoding", after RFC 8949 §4.2):
/// integers, lengths and tag numbers in their shortest form, definite lengths only, and map keys
/// sorted by major type, then encoded length, then bytes.
extension CBOR {
    /// The canonical encoding.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Appends the canonical encoding (the bytes of ``encoded``) to `out`.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let n): Self.appendHead(0, n, to: &out)
        case .negative(let n): Self.appendHead(1, n, to: &out)
        case .bytes(let bytes):
            Self.appendHead(2, UInt64(bytes.count), to: &out)
            out += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.appendHead(3, UInt64(utf8.count), to: &out)
            out += utf8
        case .array(let items):
            Self.appendHead(4, UInt64(items.count), to: &out)
            for item in items { item.encode(into: &out) }
        case .map(let map):
            Self.appendHead(5, UInt64(map.count), to: &out)
            let entries = map.map { (key: $0.key.encoded, value: $0.value) }
                .sorted { Self.canonicalOrder($0.key, $1.key) }
            for entry in entries {
                out += entry.key
                entry.value.encode(into: &out)
            }
        case .tagged(let tag, let item):
            Self.appendHead(6, tag, to: &out)
            item.encode(into: &out)
        case .bool(let value): out.append(value ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        case .undefined: out.append(0xF7)
        case .simple(let value):
            if value < 24 { out.append(0xE0 | value) } else { out += [0xF8, value] }
        case .float(let value):
            let single = Float(value)
            if Double(single) == value || value.isNaN {
                out.append(0xFA)
                Self.appendBigEndian(UInt64(single.bitPattern), bytes: 4, to: &out)
            } else {
                out.append(0xFB)
                Self.appendBigEndian(value.bitPattern, bytes: 8, to: &out)
            }
        }
    }

    /// CTAP2 canonical key order (CTAP 2.1 §8): lower major type first, then shorter encoding,
    /// then lower bytes.
    public static func canonicalOrder(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let majorA = (a.first ?? 0) >> 5
        let majorB = (b.first ?? 0) >> 5
        if majorA != majorB { return majorA < majorB }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// The initial byte and argument in the shortest form (RFC 8949 §3).
    static func appendHead(_ major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let top = major << 5
        switch argument {
        case 0..<24: out.append(top | UInt8(argument))
        case 24...0xFF: out += [top | 24, UInt8(argument)]
        case 0x100...0xFFFF:
            out.append(top | 25)
            appendBigEndian(argument, bytes: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(top | 26)
            appendBigEndian(argument, bytes: 4, to: &out)
        default:
            out.append(top | 27)
            appendBigEndian(argument, bytes: 8, to: &out)
        }
    }

    static func appendBigEndian(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in stride(from: bytes - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
