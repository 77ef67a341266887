import NFCBytes

/// A Wi-Fi Simple Configuration record (`application/vnd.wfa.wsc`): Wi-Fi credentials or a
/// configuration token, as written on "tap to join" tags and in Wi-Fi handover messages.
///
/// The payload is a sequence of WSC attributes (Wi-Fi Simple Configuration Technical
/// Specification v2.0.x §12; the NFC configuration token of §10.1.2): 2-byte type, 2-byte
/// length, value. A password token holds Version (0x104A), one or more Credentials
/// (0x100E) and the WFA Vendor Extension (0x1049) with Version2. All attributes are kept
/// verbatim and in order in ``attributes``, so unknown ones survive a round trip; ``version``,
/// ``credentials`` and ``wfaVendorExtension`` read the known ones.
///
/// Decoding: an attribute whose length field runs past the payload (also inside a
/// Credential or WFA extension) is ``NDEFError/Code/truncated`` in both modes; an empty
/// payload is ``NDEFError/Code/truncated``. Strict mode also rejects attribute types below
/// 0x1000 (reserved), a Version that is not one byte, and the size violations listed in
/// ``Credential`` and ``WFAVendorExtension`` (``NDEFError/Code/invalidPayload``); lenient mode
/// keeps such attributes verbatim and the typed accessors skip what they cannot read.
public struct WiFiSimpleConfiguration: NDEFRecordConvertible, Hashable, Sendable {
    /// The media type, `application/vnd.wfa.wsc`.
    public static let mimeType = "application/vnd.wfa.wsc"

    /// The attributes, verbatim and in order.
    public var attributes: [Attribute]
    /// Whether the payload starts with a 16-bit total length of the attributes. The WSC
    /// specification uses both layouts under this media type (the NFC password token without,
    /// the configuration token of some writers with); a payload is read as prefixed when its first
    /// two bytes equal the length of the rest, and is written back the same way.
    public var hasLengthPrefix: Bool

    /// Creates a configuration from its attributes.
    @inlinable
    public init(attributes: [Attribute], hasLengthPrefix: Bool = false) {
        self.attributes = attributes
        self.hasLengthPrefix = hasLengthPrefix
    }

    /// Creates the usual password token: Version 1.0, the credentials, and a WFA vendor
    /// extension with Version2 (2.0 unless given).
    public init(credentials: [Credential], version2: UInt8 = 0x20) throws(NDEFError) {
        var attributes = [Attribute(type: .version, value: [0x10])]
        for credential in credentials { attributes.append(try credential.attribute()) }
        attributes.append(try WFAVendorExtension(version2: version2).attribute())
        self.init(attributes: attributes)
    }

    /// Version (0x104A; high nibble major, low nibble minor; 0x10 in every v2 message), if present
    /// and one byte long.
    public var version: UInt8? {
        guard let v = attributes.first(where: { $0.type == .version })?.value, v.count == 1 else { return nil }
        return v.first
    }

    /// The Credential attributes that parse (all of them after a successful decode).
    public var credentials: [Credential] {
        attributes.compactMap { attribute in
            guard attribute.type == .credential else { return nil }
            return try? Credential.parse(attribute.value, strict: false)
        }
    }

    /// The first top-level WFA vendor extension, if any.
    public var wfaVendorExtension: WFAVendorExtension? {
        for attribute in attributes where attribute.type == .vendorExtension {
            if let ext = try? WFAVendorExtension.parse(attribute.value, strict: false, context: "") { return ext }
        }
        return nil
    }

    /// Version2 from the WFA vendor extension, if present.
    public var version2: UInt8? { wfaVendorExtension?.version2 }

    /// Interprets an `application/vnd.wfa.wsc` record, detecting a length prefix (see the type's notes on decoding).
    /// - Throws: ``NDEFError/Code/unexpectedRecordType`` for another type, ``NDEFError/Code/truncated`` for an empty payload
    ///   or an attribute cut short, ``NDEFError/Code/invalidPayload`` for what strict decoding rejects.
    public init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError) {
        try record.expect(.media, Array(Self.mimeType.utf8), "Wi-Fi Simple Configuration")
        let strict = options.mode == .strict
        let context = "Wi-Fi Simple Configuration"
        guard !record.payload.isEmpty else {
            throw NDEFError(.truncated, "\(context): the payload holds no attribute", offset: 0)
        }
        let p = record.payload
        let prefixed = p.count >= 2 && Int(p[0]) << 8 | Int(p[1]) == p.count - 2
        var cursor = PayloadCursor(prefixed ? p[2...] : p[...], context: context)
        var attributes: [Attribute] = []
        while !cursor.isAtEnd {
            let start = cursor.offset
            let type = AttributeType(rawValue: try cursor.uint16("attribute type"))
            let length = Int(try cursor.uint16("length of attribute \(type)"))
            let valueOffset = cursor.offset
            let value = try cursor.bytes(length, "value of attribute \(type)")
            if strict && type.rawValue < 0x1000 {
                throw cursor.invalid("attribute type \(type) is reserved", at: start)
            }
            if strict && type == .version && length != 1 {
                throw cursor.invalid("Version must be 1 byte, its length field says \(length)", at: start)
            }
            if strict && type == .vendorExtension && length < 3 {
                throw cursor.invalid("Vendor Extension needs a 3-byte vendor id, its length field says \(length)", at: start)
            }
            do throws(NDEFError) {
                switch type {
                case .credential: _ = try Credential.parse(value, strict: strict)
                case .vendorExtension: _ = try WFAVendorExtension.parse(value, strict: strict, context: context)
                default: break
                }
            } catch {
                // Offsets inside a nested value are relative to it: locate them in this payload.
                throw NDEFError(error.code, error.reason, offset: error.offset.map { $0 + valueOffset } ?? start)
            }
            attributes.append(Attribute(type: type, value: value))
        }
        self.attributes = attributes
        self.hasLengthPrefix = prefixed
    }

    /// The media record: the attributes in order, after a 16-bit length when ``hasLengthPrefix``.
    /// - Throws: ``NDEFError/Code/invalidValue`` when there is no attribute; ``NDEFError/Code/fieldTooLong`` for a value
    ///   over 65,535 bytes or, with the prefix, attributes over 65,535 bytes in all.
    public func record() throws(NDEFError) -> NDEFRecord {
        guard !attributes.isEmpty else {
            throw NDEFError(.invalidValue, "a Wi-Fi Simple Configuration record needs at least one attribute")
        }
        var payload = try Self.encodeAttributes(attributes)
        if hasLengthPrefix {
            guard payload.count <= 0xFFFF else {
                throw NDEFError(.fieldTooLong, "attributes of \(payload.count) bytes do not fit a 16-bit length prefix")
            }
            payload.insert(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)], at: 0)
        }
        return NDEFRecord(typeNameFormat: .media, type: Self.mimeType, payload: payload)
    }
}
