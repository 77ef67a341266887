/// A typed view over a generic ``NDEFRecord`` that converts both ways.
///
/// `init(_:options:)` interprets a record and throws ``NDEFError/Code/unexpectedRecordType`` when
/// the record is of another type, or ``NDEFError/Code/invalidPayload`` (and friends) when its
/// payload breaks the record type's definition. ``record()`` builds the generic record back.
public protocol NDEFRecordConvertible: Sendable {
    /// Interprets a generic record. Nested messages are decoded with `options.nested()`.
    init(_ record: NDEFRecord, options: NDEFDecodingOptions) throws(NDEFError)
    /// The generic record for this value; throws when a field cannot be encoded.
    func record() throws(NDEFError) -> NDEFRecord
}

extension NDEFRecordConvertible {
    /// Interprets a generic record with strict decoding and the default limits.
    public init(_ record: NDEFRecord) throws(NDEFError) {
        try self.init(record, options: .strict)
    }
}

extension NDEFRecord {
    /// Throws ``NDEFError/Code/unexpectedRecordType`` unless this record has the given TNF and type.
    public func expect(_ format: NDEFTypeNameFormat, _ type: [UInt8], _ name: String) throws(NDEFError) {
        guard typeNameFormat == format, typeBytes.elementsEqual(type) else {
            throw NDEFError(
                .unexpectedRecordType,
                "expected a \(name) record (\(format) \"\(String(decoding: type, as: UTF8.self))\"), found \(typeNameFormat) \"\(typeString)\""
            )
        }
    }
}
