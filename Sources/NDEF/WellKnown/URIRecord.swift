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

    package init(payload: ArraySlice<UInt8>, strict: Bool) throws(NDEFError) {
        guard let code = payload.first else {
            throw NDEFError(.invalidPayload, "URI payload is empty: the identifier code is missing")
        }
        // One pass over the bytes after the identifier code: whether they are all ASCII (then
        // valid UTF-8 without the generic validator) and whether any is a control character.
        let (uri, problem): (String?, NDEFError?) = payload.withUnsafeBufferPointer { buffer in
            let rest = UnsafeBufferPointer(rebasing: buffer[1...])
            var ascii = true
            var control = false
            for byte in rest {
                if byte >= 0x80 {
                    ascii = false
                } else if byte < 0x20 || byte == 0x7F {
                    control = true
                }
            }
            if strict && !ascii && String(validating: rest, as: UTF8.self) == nil {
                return (nil, NDEFError(.invalidEncoding, "URI is not valid UTF-8"))
            }
            if strict && control {
                return (nil, NDEFError(.invalidPayload, "URI holds control characters, which RFC 3987 does not allow"))
            }
            let known = URIPrefix(rawValue: code)
            if known == nil && strict {
                return (nil, NDEFError(.invalidPayload, "URI identifier code 0x\(Hex.encode([code], uppercase: true)) is reserved"))
            }
            // §3.2.2: a reserved code is read as no prefix. The URI is built in one allocation
            // (invalid UTF-8, possible only when lenient, is repaired with U+FFFD).
            var prefix = (known ?? URIPrefix.none).string
            let text = prefix.withUTF8 { head in
                String(unsafeUninitializedCapacity: head.count + rest.count) { out in
                    _ = out.initialize(from: head)
                    _ = UnsafeMutableBufferPointer(rebasing: out[head.count...]).initialize(from: rest)
                    return head.count + rest.count
                }
            }
            return (text, nil)
        }
        if let problem { throw problem }
        self.uri = uri ?? ""
        self.prefix = URIPrefix(rawValue: code) ?? .none
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
