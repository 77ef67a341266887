import NFCBytes

/// The NFC Forum Text record (well-known type `T`): text with its language and encoding.
///
/// NFC Forum Text Record Type Definition 1.0 §3.2.1: a status byte (bit 7: UTF-16, bit 6:
/// reserved, bits 5–0: length of the language code), the IANA language code (RFC 5646, ASCII),
/// then the text. UTF-16 text may start with a byte-order mark; without one it is big-endian.
public struct TextRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The text encoding signalled by bit 7 of the status byte.
    public enum Encoding: Sendable, Hashable {
        /// UTF-8 (bit 7 clear).
        case utf8
        /// UTF-16 (bit 7 set); see ``UTF16Layout`` for the byte order.
        case utf16
    }

    /// How UTF-16 text is laid out (kept from decoding so a round trip is byte-exact).
    public enum UTF16Layout: Sendable, Hashable {
        /// `FE FF` then big-endian (what this library writes).
        case bigEndianWithBOM
        /// `FF FE` then little-endian (what ndeflib and many phones write).
        case littleEndianWithBOM
        /// Big-endian with no byte-order mark (the spec's default).
        case bigEndian
    }

    /// The well-known type name, `T`.
    public static let recordType: [UInt8] = [0x54]

    /// The text.
    public var text: String
    /// The language code, e.g. `en` or `en-US` (1–63 ASCII characters).
    public var languageCode: String
    /// UTF-8 or UTF-16.
    public var encoding: Encoding
    /// The UTF-16 layout when ``encoding`` is `.utf16`.
    public var utf16Layout: UTF16Layout

    /// A record of `text` in `languageCode` (default `en`), UTF-8 by default; the language code is checked by ``record()``.
    public init(
        text: String, languageCode: String = "en", encoding: Encoding = .utf8,
        utf16Layout: UTF16Layout = .bigEndianWithBOM
    ) {
        self.text = text
        self.languageCode = languageCode
        self.encoding = encoding
        self.utf16Layout = utf16Layout
    }

    /// Interprets a well-known `T` record.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type; ``NDEFError/Code/invalidPayload`` for an empty
    ///   payload or a language code longer than the bytes left, and in strict mode for an empty or non-ASCII language
    ///   code; ``NDEFError/Code/invalidEncoding`` for UTF-16 text of odd length, and in strict mode for invalid text.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "Text")
        try self.init(payload: record.payloadBytes, strict: options.isStrict)
    }

    /// Decodes a Text payload.
    package init(payload: ArraySlice<UInt8>, strict: Bool) throws(NDEFError) {
        // Fast path for the common case: UTF-8 text after a short ASCII language code.
        if let first = payload.first, first & 0x80 == 0, first & 0x3F != 0, Int(first & 0x3F) < payload.count {
            let decoded: (String, String)? = payload.withUnsafeBufferPointer { buffer in
                let n = Int(first & 0x3F)
                let language = UnsafeBufferPointer(rebasing: buffer[1..<(1 + n)])
                guard TextCoding.isPrintableASCII(language),
                    let text = UTF8Text.validated(UnsafeBufferPointer(rebasing: buffer[(1 + n)...]))
                else { return nil }
                return (String(decoding: language, as: UTF8.self), text)
            }
            if let (language, text) = decoded {
                self.init(text: text, languageCode: language)
                return
            }
        }
        try self.init(slice: payload, strict: strict)
    }

    /// Decodes a Text payload: the general path, which also explains every failure.
    init(slice payload: ArraySlice<UInt8>, strict: Bool) throws(NDEFError) {
        guard let status = payload.first else {
            throw NDEFError(.invalidPayload, "Text payload is empty: the status byte is missing")
        }
        let languageLength = Int(status & 0x3F)
        let body = payload.dropFirst()
        guard languageLength <= body.count else {
            throw NDEFError(
                .invalidPayload,
                "Text language code length \(languageLength) exceeds the \(body.count) bytes after the status byte")
        }
        if languageLength == 0 && strict {
            throw NDEFError(.invalidPayload, "Text record has no language code")
        }
        let language = body.prefix(languageLength)
        if strict && !TextCoding.isPrintableASCII(language) {
            throw NDEFError(.invalidPayload, "Text language code is not printable ASCII")
        }
        languageCode = String(decoding: language, as: UTF8.self)
        let textBytes = body.dropFirst(languageLength)
        if status & 0x80 == 0 {
            encoding = .utf8
            utf16Layout = .bigEndianWithBOM
            text = try TextCoding.utf8(textBytes, strict: strict, field: "Text")
        } else {
            encoding = .utf16
            (text, utf16Layout) = try Self.decodeUTF16(textBytes, strict: strict)
        }
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, strict: Bool) throws(NDEFError) -> (String, UTF16Layout) {
        guard bytes.count % 2 == 0 else {
            throw NDEFError(.invalidEncoding, "UTF-16 Text has an odd number of bytes (\(bytes.count))")
        }
        var layout = UTF16Layout.bigEndian
        var body = bytes
        if bytes.count >= 2 {
            let b0 = bytes[bytes.startIndex]
            let b1 = bytes[bytes.startIndex + 1]
            if b0 == 0xFE && b1 == 0xFF {
                layout = .bigEndianWithBOM
                body = bytes.dropFirst(2)
            } else if b0 == 0xFF && b1 == 0xFE {
                layout = .littleEndianWithBOM
                body = bytes.dropFirst(2)
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var i = body.startIndex
        while i < body.endIndex {
            let a = UInt16(body[i])
            let b = UInt16(body[i + 1])
            units.append(layout == .littleEndianWithBOM ? b << 8 | a : a << 8 | b)
            i += 2
        }
        if strict {
            var scalars = String.UnicodeScalarView()
            var decoder = UTF16()
            var iterator = units.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let s): scalars.append(s)
                case .emptyInput: break loop
                case .error: throw NDEFError(.invalidEncoding, "Text is not valid UTF-16 (unpaired surrogate)")
                }
            }
            return (String(scalars), layout)
        }
        return (String(decoding: units, as: UTF16.self), layout)
    }

    /// The well-known `T` record with ``payload()``.
    /// - Throws: ``NDEFError/Code/invalidValue`` for a language code over 63 bytes or not printable ASCII.
    public func record() throws(NDEFError) -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: try payload())
    }

    /// The encoded payload.
    public func payload() throws(NDEFError) -> [UInt8] {
        // The code's UTF-8 view, not an array of it: one allocation per record (the payload's).
        let language = languageCode.utf8
        guard language.count <= 63 else {
            throw NDEFError(.invalidValue, "a Text language code is at most 63 bytes, \"\(languageCode)\" has \(language.count)")
        }
        guard TextCoding.isPrintableASCII(language) else {
            throw NDEFError(.invalidValue, "a Text language code is ASCII, \"\(languageCode)\" is not")
        }
        var out: [UInt8] = []
        out.reserveCapacity(1 + language.count + text.utf8.count * (encoding == .utf8 ? 1 : 2) + 2)
        out.append(UInt8(language.count) | (encoding == .utf16 ? 0x80 : 0))
        out.append(contentsOf: language)
        switch encoding {
        case .utf8:
            out.append(contentsOf: text.utf8)
        case .utf16:
            switch utf16Layout {
            case .bigEndianWithBOM: out.append(contentsOf: [0xFE, 0xFF])
            case .littleEndianWithBOM: out.append(contentsOf: [0xFF, 0xFE])
            case .bigEndian: break
            }
            for unit in text.utf16 {
                if utf16Layout == .littleEndianWithBOM {
                    out.append(UInt8(truncatingIfNeeded: unit))
                    out.append(UInt8(truncatingIfNeeded: unit >> 8))
                } else {
                    out.append(UInt8(truncatingIfNeeded: unit >> 8))
                    out.append(UInt8(truncatingIfNeeded: unit))
                }
            }
        }
        return out
    }
}
