/// The BER-TLV subset the emulated PIV applet reads and writes (ISO/IEC 7816-4:2013 §5.2,
/// SP 800-73-4 Part 2 §3.3): tags of one to three bytes, definite lengths of up to three bytes.
///
/// The applet's own reading of the encoding, separate from the client's. Parsing never traps:
/// anything malformed yields `nil`, which the applet answers with `6A80`.
struct PIVTLV: Sendable, Hashable {
    /// The tag with its class and constructed bits, e.g. `0x7C`, `0x5FC102`, `0x7F49`.
    var tag: UInt32
    var value: [UInt8]

    init(_ tag: UInt32, _ value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// The encoded tag, length and value.
    var bytes: [UInt8] {
        PIVTLV.encodeTag(tag) + PIVTLV.encodeLength(value.count) + value
    }

    static func encodeTag(_ tag: UInt32) -> [UInt8] {
        if tag > 0xFFFF {
            return [UInt8(truncatingIfNeeded: tag >> 16), UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)]
        }
        if tag > 0xFF { return [UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)] }
        return [UInt8(truncatingIfNeeded: tag)]
    }

    static func encodeLength(_ length: Int) -> [UInt8] {
        if length < 0x80 { return [UInt8(length)] }
        if length <= 0xFF { return [0x81, UInt8(length)] }
        if length <= 0xFFFF { return [0x82, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)] }
        return [0x83, UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }

    /// Parses a sequence of TLVs filling `bytes` exactly; `nil` when anything is malformed.
    static func parseAll(_ bytes: [UInt8]) -> [PIVTLV]? {
        var index = 0
        var out: [PIVTLV] = []
        while index < bytes.count {
            // ISO/IEC 7816-4 allows 00 and FF padding between objects.
            if bytes[index] == 0x00 || bytes[index] == 0xFF {
                index += 1
                continue
            }
            guard let (tlv, next) = parse(bytes, at: index) else { return nil }
            out.append(tlv)
            index = next
        }
        return out
    }

    /// Parses one TLV at `start`, returning it and the index after it.
    static func parse(_ bytes: [UInt8], at start: Int) -> (PIVTLV, Int)? {
        var index = start
        guard index < bytes.count else { return nil }
        var tag = UInt32(bytes[index])
        index += 1
        if tag & 0x1F == 0x1F {
            // Subsequent tag bytes: b8 set means another follows (at most two more here).
            var more = 0
            repeat {
                guard index < bytes.count, more < 2 else { return nil }
                let byte = bytes[index]
                tag = tag << 8 | UInt32(byte)
                index += 1
                more += 1
                if byte & 0x80 == 0 { break }
            } while true
        }
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...3).contains(count), index + count <= bytes.count else { return nil }
            for byte in bytes[index..<(index + count)] { length = length << 8 | Int(byte) }
            index += count
        }
        guard length <= bytes.count - index else { return nil }
        return (PIVTLV(tag, Array(bytes[index..<(index + length)])), index + length)
    }

    /// The first TLV of a tag in a list.
    static func first(_ tag: UInt32, in list: [PIVTLV]) -> PIVTLV? {
        list.first { $0.tag == tag }
    }
}
