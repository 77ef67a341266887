/// A small DER encoder for the X.509 structures the CLI builds (ITU-T X.690 §8, §10).
public enum DER {
    /// A TLV with a one-byte tag.
    public static func tlv(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] { BERTLV(tag: UInt32(tag), value: value).encoded }
    /// A SEQUENCE (tag `30`) of the concatenated encoded items.
    public static func sequence(_ items: [UInt8]...) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    /// A SET (tag `31`) of the encoded items, concatenated in the order given (not sorted as DER SET OF requires).
    public static func set(_ items: [UInt8]...) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }
    /// A context-specific constructed tag `[n]` (EXPLICIT).
    public static func explicit(_ number: UInt8, _ value: [UInt8]) -> [UInt8] { tlv(0xA0 | number, value) }
    /// A BIT STRING (tag `03`) of whole bytes: an unused-bits byte `00`, then `bytes`.
    public static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0x00] + bytes) }
    /// An OCTET STRING (tag `04`).
    public static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }
    /// A UTF8String (tag `0C`) of the text's UTF-8 bytes.
    public static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    /// A BOOLEAN (tag `01`): `FF` for true, `00` for false.
    public static func boolean(_ value: Bool) -> [UInt8] { tlv(0x01, [value ? 0xFF : 0x00]) }

    /// An INTEGER from big-endian magnitude bytes: leading zeros dropped, `00` added when the
    /// top bit is set (X.690 §8.3: two's complement, minimal).
    public static func integer(unsigned bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return tlv(0x02, value)
    }

    /// An OBJECT IDENTIFIER from its arcs (X.690 §8.19); nil for fewer than two arcs or a first arc above 2.
    public static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8]? {
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        var body: [UInt8] = []
        for (index, arc) in ([arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)).enumerated() {
            _ = index
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            body += chunk
        }
        return tlv(0x06, body)
    }

    /// The arcs of an OBJECT IDENTIFIER's contents, dotted; nil when malformed.
    public static func dotted(objectIdentifier contents: [UInt8]) -> String? {
        guard !contents.isEmpty, contents.last.map({ $0 & 0x80 == 0 }) == true else { return nil }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in contents {
            guard value < (1 << 56) else { return nil }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        guard let first = arcs.first else { return nil }
        let head: [UInt64] = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }
}
