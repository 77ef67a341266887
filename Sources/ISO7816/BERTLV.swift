/// One BER-TLV data object (ISO/IEC 7816-4:2013 §5.2; SP 800-73-4 Part 2 §3.3 uses tags of up to
/// three bytes and definite lengths of up to three length bytes).
public struct BERTLV: Sendable, Hashable {
    /// The tag as its bytes read big-endian (`0x7C`, `0x5FC102`, `0x7F49`).
    public var tag: UInt32
    /// The value bytes (for a constructed object, the encoded objects it contains).
    public var value: [UInt8]

    /// An object with `tag` (as its bytes read big-endian) and `value`.
    public init(tag: UInt32, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// Whether the first tag byte has the constructed bit (b6) set.
    public var isConstructed: Bool { Self.tagBytes(tag).first.map { $0 & 0x20 != 0 } ?? false }

    /// Tag, length and value.
    public var encoded: [UInt8] { Self.tagBytes(tag) + Self.lengthBytes(value.count) + value }

    /// The bytes of a tag (one to four, leading zero bytes dropped).
    public static func tagBytes(_ tag: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = tag
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while rest != 0
        return bytes
    }

    /// A definite length: short form below 128, else `81`/`82`/`83` and the length.
    public static func lengthBytes(_ length: Int) -> [UInt8] {
        switch length {
        case ..<0x80: [UInt8(truncatingIfNeeded: length)]
        case ..<0x100: [0x81, UInt8(truncatingIfNeeded: length)]
        case ..<0x1_0000: [0x82, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        default: [0x83, UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        }
    }

    /// Parses the objects filling `bytes` exactly (`00`/`FF` bytes between objects are skipped as
    /// ISO/IEC 7816-4 allows).
    /// - Throws: ``BERTLVError`` with the offset of the first malformed byte.
    public static func parseAll(_ bytes: [UInt8], baseOffset: Int = 0) throws(BERTLVError) -> [BERTLV] {
        var index = 0
        var out: [BERTLV] = []
        while index < bytes.count {
            if bytes[index] == 0x00 || bytes[index] == 0xFF {
                index += 1
                continue
            }
            let (object, next) = try parse(bytes, at: index, baseOffset: baseOffset)
            out.append(object)
            index = next
        }
        return out
    }

    /// Parses one object at `start`; returns it and the index after it.
    public static func parse(_ bytes: [UInt8], at start: Int, baseOffset: Int = 0) throws(BERTLVError) -> (BERTLV, Int) {
        var index = start
        guard index >= 0, index < bytes.count else { throw BERTLVError(offset: baseOffset + start, reason: "a tag was expected") }
        var tag = UInt32(bytes[index])
        index += 1
        if tag & 0x1F == 0x1F {
            var count = 0
            while true {
                guard index < bytes.count else { throw BERTLVError(offset: baseOffset + index, reason: "the tag is cut short") }
                guard count < 2 else { throw BERTLVError(offset: baseOffset + start, reason: "a tag longer than 3 bytes") }
                let byte = bytes[index]
                tag = tag << 8 | UInt32(byte)
                index += 1
                count += 1
                if byte & 0x80 == 0 { break }
            }
        }
        guard index < bytes.count else { throw BERTLVError(offset: baseOffset + index, reason: "the length of tag \(hex(tag)) is missing") }
        let first = bytes[index]
        index += 1
        var length = 0
        if first >= 0x80 {
            let count = Int(first & 0x7F)
            guard (1...3).contains(count) else {
                throw BERTLVError(
                    offset: baseOffset + index - 1, reason: "length byte \(hex(UInt32(first))) is not a definite length of 1–3 bytes")
            }
            guard index + count <= bytes.count else {
                throw BERTLVError(offset: baseOffset + index, reason: "the length of tag \(hex(tag)) is cut short")
            }
            for byte in bytes[index..<(index + count)] { length = length << 8 | Int(byte) }
            index += count
        } else {
            length = Int(first)
        }
        guard length <= bytes.count - index else {
            throw BERTLVError(offset: baseOffset + index, reason: "tag \(hex(tag)) says \(length) bytes but \(bytes.count - index) remain")
        }
        return (BERTLV(tag: tag, value: Array(bytes[index..<(index + length)])), index + length)
    }

    /// A tag in upper-case hex (`5FC102`).
    public static func hex(_ tag: UInt32) -> String {
        tagBytes(tag).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}

extension Array where Element == BERTLV {
    /// The first object with a tag.
    public func first(tag: UInt32) -> BERTLV? { first { $0.tag == tag } }
}

/// Bytes that are not well-formed BER-TLV, with where.
public struct BERTLVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the offending byte in the bytes parsed.
    public let offset: Int
    /// What is malformed there, for people (`the tag is cut short`).
    public let reason: String

    /// An error at `offset` for `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `malformed BER-TLV at offset N: reason`.
    public var description: String { "malformed BER-TLV at offset \(offset): \(reason)" }
}
