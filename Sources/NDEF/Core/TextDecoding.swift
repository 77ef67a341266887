import NFCBytes

/// Text helpers shared by the typed records (Foundation-free).
enum TextCoding {
    /// Decodes UTF-8; strict mode rejects ill-formed input, lenient mode substitutes U+FFFD.
    static func utf8<C: Collection>(_ bytes: C, strict: Bool, field: String) throws(NDEFError) -> String
    where C.Element == UInt8 {
        if strict {
            guard let s = UTF8Text.validated(bytes) else {
                throw NDEFError(.invalidEncoding, "\(field) is not valid UTF-8")
            }
            return s
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether every byte is printable ASCII (0x20–0x7E).
    static func isPrintableASCII<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether `type` is a valid RTD name: URN "other" characters (NFC Forum RTD 1.0 §2.1, RFC 2141 §2.2).
    static func isRTDName(_ type: [UInt8]) -> Bool {
        !type.isEmpty
            && type.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || "()+,-.:=@;$_!*'%/?#".utf8.contains(b)
            }
    }

    /// Whether `type` starts with an RFC 3986 §3.1 scheme and a colon, and is printable ASCII.
    static func isAbsoluteURI(_ type: [UInt8]) -> Bool {
        guard let colon = type.firstIndex(of: UInt8(ascii: ":")), colon > 0, isPrintableASCII(type),
            let first = type.first, (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A)
        else { return false }
        return type[..<colon].allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2B || b == 0x2D || b == 0x2E
        }
    }

    /// Decodes the one-character-per-byte (Latin-1) form used for types and identifiers in text.
    static func latin1<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var s = String.UnicodeScalarView()
        for b in bytes { s.append(Unicode.Scalar(b)) }
        return String(s)
    }

    /// Encodes text in the one-character-per-byte form, or nil if a character is above U+00FF.
    static func latin1Bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    }
}

extension NDEFRecord {
    /// The type as one character per byte (lossless for any bytes).
    public var typeLatin1: String { TextCoding.latin1(type) }
    /// The identifier as one character per byte (lossless for any bytes).
    public var identifierLatin1: String { TextCoding.latin1(identifier) }

    /// Bytes from the one-character-per-byte form, or nil if a character is above U+00FF.
    public static func latin1Bytes(_ text: String) -> [UInt8]? { TextCoding.latin1Bytes(text) }

    /// Bytes in the one-character-per-byte form (lossless for any bytes).
    public static func latin1String(_ bytes: [UInt8]) -> String { TextCoding.latin1(bytes) }
}
