/// An NFC Forum external-type record (TNF 4): `domain:type`, defined by an organisation.
///
/// NFC Forum RTD 1.0 §2.1.2 and §3.4: the name is a DNS domain owned by the organisation, a
/// colon, and a type of URN "other" characters (RFC 2141); it is compared case-insensitively.
public struct ExternalRecord: NDEFRecordConvertible, Hashable, Sendable {
    /// The domain part, e.g. `example.com`.
    public var domain: String
    /// The type part, e.g. `mytype`.
    public var name: String
    /// The payload.
    public var payload: [UInt8]
    /// The record identifier (empty when absent).
    public var identifier: [UInt8]

    /// Creates a record from its domain and type; ``record()`` checks both.
    public init(domain: String, name: String, payload: [UInt8], identifier: [UInt8] = []) {
        self.domain = domain
        self.name = name
        self.payload = payload
        self.identifier = identifier
    }

    /// Creates a record from a whole `domain:type` name.
    public init(typeName: String, payload: [UInt8], identifier: [UInt8] = []) throws(NDEFError) {
        let (domain, name) = try Self.split(Array(typeName.utf8), strict: true)
        self.init(domain: domain, name: name, payload: payload, identifier: identifier)
    }

    /// Interprets an external-type record (TNF 4), splitting its type at the first colon.
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another TNF; in strict mode ``NDEFError/Code/invalidValue``
    ///   when the type lacks the colon, the domain is empty or not domain-name characters, or the type part is empty
    ///   or has characters RFC 2141 does not allow (lenient decoding reads a type without a colon as a name with an
    ///   empty domain, and checks no characters).
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        guard record.typeNameFormat == .external else {
            throw NDEFError(.unexpectedRecordType, "expected an external-type record (TNF 4), found \(record.typeNameFormat)")
        }
        (domain, name) = try Self.split(record.type, strict: options.isStrict)
        payload = record.payload
        identifier = record.identifier
    }

    /// The full type name, `domain:type`.
    public var typeName: String { domain + ":" + name }

    /// The TNF 4 record with type `domain:type`.
    /// - Throws: ``NDEFError/Code/invalidValue`` when the domain is empty or not domain-name characters, or the type
    ///   part is empty or has characters RFC 2141 does not allow.
    public func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(typeName.utf8)
        _ = try Self.split(type, strict: true)
        return NDEFRecord(typeNameFormat: .external, type: type, identifier: identifier, payload: payload)
    }

    static func split(_ type: [UInt8], strict: Bool) throws(NDEFError) -> (String, String) {
        guard let colon = type.firstIndex(of: UInt8(ascii: ":")) else {
            if strict {
                throw NDEFError(.invalidValue, "external type \"\(String(decoding: type, as: UTF8.self))\" lacks the domain:type colon")
            }
            return ("", String(decoding: type, as: UTF8.self))
        }
        let domain = type[..<colon]
        let name = type[(colon + 1)...]
        if strict {
            guard !domain.isEmpty, domain.allSatisfy(isDomainByte) else {
                throw NDEFError(.invalidValue, "external type domain \"\(String(decoding: domain, as: UTF8.self))\" is not a domain name")
            }
            guard !name.isEmpty, name.allSatisfy(isURNOtherByte) else {
                throw NDEFError(
                    .invalidValue, "external type name \"\(String(decoding: name, as: UTF8.self))\" has characters RFC 2141 does not allow")
            }
        }
        return (String(decoding: domain, as: UTF8.self), String(decoding: name, as: UTF8.self))
    }

    private static func isDomainByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E
    }

    /// RFC 2141 §2.2 `<trans>` characters (letters, digits, `()+,-.:=@;$_!*'%/?#`).
    private static func isURNOtherByte(_ b: UInt8) -> Bool {
        isDomainByte(b) || "()+,-.:=@;$_!*'%/?#".utf8.contains(b)
    }
}
