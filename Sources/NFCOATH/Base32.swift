/// Base 32 (RFC 4648 §6), the encoding of OATH secrets in `otpauth://` URIs and authenticator apps.
public enum Base32 {
    /// Why text is not Base 32.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A character outside `A–Z`, `2–7` (and `=` padding) at this offset.
        case invalidCharacter(offset: Int)
        /// A length no encoding produces (1, 3 or 6 characters in the last group).
        case invalidLength(Int)

        /// What is wrong and where, e.g. `not a Base32 character at offset 4`.
        public var description: String {
            switch self {
            case .invalidCharacter(let offset): "not a Base32 character at offset \(offset)"
            case .invalidLength(let count): "\(count) Base32 characters cannot encode whole bytes"
            }
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Decodes Base 32; lower case, spaces, dashes and missing or present `=` padding are accepted.
    public static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        var values: [UInt8] = []
        var sawPadding = false
        for (offset, byte) in text.utf8.enumerated() {
            if byte == 0x20 || byte == 0x2D { continue }
            if byte == 0x3D {
                sawPadding = true
                continue
            }
            guard !sawPadding else { throw .invalidCharacter(offset: offset) }
            let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
            guard let value = alphabet.firstIndex(of: upper) else { throw .invalidCharacter(offset: offset) }
            values.append(UInt8(value))
        }
        guard ![1, 3, 6].contains(values.count % 8) else { throw .invalidLength(values.count) }
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for value in values {
            buffer = (buffer << 5 | Int(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> bits))
            }
        }
        return out
    }

    /// Encodes bytes as upper-case Base 32 without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[(buffer >> bits) & 0x1F])
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 0x1F]) }
        return String(decoding: out, as: UTF8.self)
    }
}
