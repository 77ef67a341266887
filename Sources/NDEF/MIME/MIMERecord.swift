/// A media-type record (TNF 2): a payload described by an RFC 2046 media type.
///
/// NFC Forum NDEF 1.0 §3.2.6: the TYPE field holds `type/subtype` (RFC 2046, with optional
/// parameters); media types are compared case-insensitively.
public struct MIMERecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The media type, e.g. `text/plain` or `image/png`.
    public var mimeType: String
    /// The payload.
    public var data: [UInt8]
    /// The record identifier (empty when absent).
    public var identifier: [UInt8]

    /// A record of media type `mimeType` (checked by ``record()``) holding `data`.
    public init(mimeType: String, data: [UInt8], identifier: [UInt8] = []) {
        self.mimeType = mimeType
        self.data = data
        self.identifier = identifier
    }

    /// Interprets a media-type record (TNF 2); the type is taken as UTF-8 text.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another TNF; in strict mode ``NDEFError/Code/invalidValue``
    ///   when the type is not a media type (``isValidMediaType(_:)``).
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        guard record.typeNameFormat == .media else {
            throw NDEFError(.unexpectedRecordType, "expected a media-type record (TNF 2), found \(record.typeNameFormat)")
        }
        if options.isStrict && !Self.isValidMediaType(slice: record.typeBytes) {
            throw NDEFError(.invalidValue, "\"\(record.typeString)\" is not a media type (type/subtype)")
        }
        mimeType = String(decoding: record.typeBytes, as: UTF8.self)
        data = Array(record.payloadBytes)
        identifier = Array(record.identifierBytes)
    }

    /// The TNF 2 record with ``mimeType`` as its type and ``data`` as its payload.
    /// - Throws: ``NDEFError/Code/invalidValue`` when ``mimeType`` is not a media type (``isValidMediaType(_:)``).
    public func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(mimeType.utf8)
        guard Self.isValidMediaType(type) else {
            throw NDEFError(.invalidValue, "\"\(mimeType)\" is not a media type (type/subtype)")
        }
        return NDEFRecord(typeNameFormat: .media, type: type, identifier: identifier, payload: data)
    }

    /// The `type/subtype` part, lower-cased, without parameters.
    public var essence: String {
        let base = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? mimeType
        return String(base.filter { $0 != " " }).lowercased()
    }

    /// Whether `type` is `token "/" token` optionally followed by `;` parameters (RFC 2045 §5.1).
    public static func isValidMediaType(_ type: [UInt8]) -> Bool {
        isValidMediaType(slice: type[...])
    }

    /// ``isValidMediaType(_:)`` on a view of the type's bytes (no copy).
    static func isValidMediaType(slice type: ArraySlice<UInt8>) -> Bool {
        let end = type.firstIndex(of: UInt8(ascii: ";")) ?? type.endIndex
        let essence = type[..<end]
        guard let slash = essence.firstIndex(of: UInt8(ascii: "/")) else { return false }
        let major = essence[..<slash]
        let minor = essence[(slash + 1)...]
        return !major.isEmpty && !minor.isEmpty && major.allSatisfy(isTokenByte) && minor.allSatisfy(isTokenByte)
            && TextCoding.isPrintableASCII(type)
    }

    /// RFC 2045 §5.1 token characters: printable ASCII except space and tspecials.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x30...0x39, 0x41...0x5A, 0x5E...0x7E: return true
        default: return false  // controls, space, and the tspecials ( ) < > @ , ; : \\ " / [ ] ? =
        }
    }
}
