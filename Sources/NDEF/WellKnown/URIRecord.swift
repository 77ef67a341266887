import NFCBytes

/// The NFC Forum URI record (well-known type `U`): a URI or IRI, its beginning abbreviated.
///
/// NFC Forum URI Record Type Definition 1.0 §3.2: one identifier-code byte (``URIPrefix``),
/// then the rest of the URI as UTF-8 (an IRI, RFC 3987, may hold any Unicode characters).
public struct URIRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The well-known type name, `U`.
    public static let recordType: [UInt8] = [0x55]

    /// The whole URI, prefix expanded.
    public var uri: String
    /// The identifier code used for the prefix (the longest match by default; kept from decoding).
    public var prefix: URIPrefix

    /// Creates a record for `uri`, abbreviating its longest known prefix.
    public init(uri: String) {
        self.uri = uri
        self.prefix = URIPrefix.longestMatch(for: uri)
    }

    /// Creates a record with an explicit prefix code; `uri` must start with its text.
    public init(uri: String, prefix: URIPrefix) throws(NDEFError) {
        guard uri.utf8.starts(with: prefix.string.utf8) else {
            throw NDEFError(.invalidValue, "\"\(uri)\" does not start with the prefix \"\(prefix.string)\"")
        }
        self.uri = uri
        self.prefix = prefix
    }

    /// Interprets a well-known `U` record; lenient decoding reads a reserved identifier code as no prefix.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type; ``NDEFError/Code/invalidPayload`` for an empty
    ///   payload, and in strict mode for control characters or a reserved identifier code; in strict mode
    ///   ``NDEFError/Code/invalidEncoding`` for text that is not UTF-8.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.wellKnown, Self.recordType, "URI")
        try self.init(payload: record.payloadBytes, strict: options.isStrict)
    }

    init(payload: ArraySlice<UInt8>, strict: Bool) throws(NDEFError) {
        guard let code = payload.first else {
            throw NDEFError(.invalidPayload, "URI payload is empty: the identifier code is missing")
        }
        let decoded: String? = payload.withUnsafeBufferPointer { buffer in
            let rest = UnsafeBufferPointer(rebasing: buffer[1...])
            return strict ? String(validating: rest, as: UTF8.self) : String(decoding: rest, as: UTF8.self)
        }
        guard let rest = decoded else {
            throw NDEFError(.invalidEncoding, "URI is not valid UTF-8")
        }
        if strict, rest.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw NDEFError(.invalidPayload, "URI holds control characters, which RFC 3987 does not allow")
        }
        if let known = URIPrefix(rawValue: code) {
            prefix = known
        } else if strict {
            throw NDEFError(.invalidPayload, "URI identifier code 0x\(Hex.encode([code], uppercase: true)) is reserved")
        } else {
            prefix = .none  // §3.2.2: a reserved code is read as no prefix
        }
        uri = prefix.string + rest
    }

    /// The well-known `U` record with ``payload()``; never throws.
    public func record() throws(NDEFError) -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Self.recordType, payload: payload())
    }

    /// The encoded payload.
    public func payload() -> [UInt8] {
        let usable = uri.utf8.starts(with: prefix.string.utf8) ? prefix : URIPrefix.longestMatch(for: uri)
        let rest = uri.utf8.dropFirst(usable.string.utf8.count)
        var out: [UInt8] = []
        out.reserveCapacity(1 + rest.count)
        out.append(usable.rawValue)
        out.append(contentsOf: rest)
        return out
    }

    /// The URI with every non-ASCII character percent-encoded as UTF-8 (RFC 3987 §3.1 step 2b);
    /// host names are not converted to Punycode.
    public var asciiURI: String {
        var out = ""
        for byte in uri.utf8 {
            if byte < 0x80 {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + Hex.encode([byte], uppercase: true)
            }
        }
        return out
    }
}
