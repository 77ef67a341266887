/// One NDEF record: a type name format, a type, an optional identifier and a payload.
///
/// This is the generic, lossless form: every record decodes to it and encodes from it. Typed
/// views (``TextRecord``, ``URIRecord``, ``SmartPosterRecord``, …) convert to and from it.
/// A chunked record on the wire is one `NDEFRecord` here, its payload reassembled.
/// NFC Forum NDEF 1.0 §3.2.
public struct NDEFRecord: Hashable, Sendable {
    /// How to read ``type``.
    public var typeNameFormat: NDEFTypeNameFormat
    /// The record type (at most 255 bytes), interpreted per ``typeNameFormat``.
    public var type: [UInt8]
    /// The record identifier, a URI reference (at most 255 bytes); empty when absent.
    public var identifier: [UInt8]
    /// The payload (at most 2³²−1 bytes).
    public var payload: [UInt8]

    /// Creates a record from its fields; ``validate()`` checks the NDEF rules (the encoder
    /// calls it too).
    @inlinable
    public init(
        typeNameFormat: NDEFTypeNameFormat, type: [UInt8] = [], identifier: [UInt8] = [],
        payload: [UInt8] = []
    ) {
        self.typeNameFormat = typeNameFormat
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// Creates a record whose type is given as text (ASCII for every TNF that has a type).
    public init(
        typeNameFormat: NDEFTypeNameFormat, type: String, identifier: [UInt8] = [],
        payload: [UInt8] = []
    ) {
        self.init(
            typeNameFormat: typeNameFormat, type: Array(type.utf8), identifier: identifier,
            payload: payload)
    }

    /// The empty record (TNF 0): a placeholder for an empty message.
    public static let empty = NDEFRecord(typeNameFormat: .empty)

    /// The type as text (types are ASCII by definition; other bytes decode as U+FFFD).
    public var typeString: String { String(decoding: type, as: UTF8.self) }

    /// Whether this record has the given TNF and type.
    @inlinable
    public func hasType(_ format: NDEFTypeNameFormat, _ type: [UInt8]) -> Bool {
        typeNameFormat == format && self.type == type
    }

    /// Checks the rules NDEF sets on which TNF may carry which fields, and the field sizes.
    ///
    /// NFC Forum NDEF 1.0 §3.2.6 (empty: all lengths zero; unknown and unchanged: no type;
    /// the others: a type), §3.2.10–3.2.12 (length fields), §3.3.
    public func validate() throws(NDEFError) {
        if type.count > 255 {
            throw NDEFError(.fieldTooLong, "a record type is at most 255 bytes, this one has \(type.count)")
        }
        if identifier.count > 255 {
            throw NDEFError(
                .fieldTooLong, "a record identifier is at most 255 bytes, this one has \(identifier.count)")
        }
        if UInt64(payload.count) > UInt64(UInt32.max) {
            throw NDEFError(.fieldTooLong, "a payload is at most 2^32-1 bytes")
        }
        switch typeNameFormat {
        case .empty:
            if !type.isEmpty || !identifier.isEmpty || !payload.isEmpty {
                throw NDEFError(.fieldNotAllowed, "an empty record (TNF 0) has no type, identifier or payload")
            }
        case .unknown:
            if !type.isEmpty {
                throw NDEFError(.fieldNotAllowed, "an unknown record (TNF 5) has no type")
            }
        case .unchanged:
            throw NDEFError(
                .invalidChunk, "TNF 6 (unchanged) only marks the later chunks of a chunked record on the wire")
        case .reserved:
            throw NDEFError(.reservedTypeNameFormat, "TNF 7 is reserved")
        case .wellKnown, .media, .absoluteURI, .external:
            if type.isEmpty {
                throw NDEFError(.missingType, "a \(typeNameFormat) record needs a type")
            }
        }
    }
}

extension NDEFRecord: CustomStringConvertible {
    /// `NDEFRecord(TNF, type: "…", id: "…", payload: N bytes)`, leaving out an empty type or identifier.
    public var description: String {
        var s = "NDEFRecord(\(typeNameFormat)"
        if !type.isEmpty { s += ", type: \"\(typeString)\"" }
        if !identifier.isEmpty { s += ", id: \"\(String(decoding: identifier, as: UTF8.self))\"" }
        s += ", payload: \(payload.count) bytes)"
        return s
    }
}
