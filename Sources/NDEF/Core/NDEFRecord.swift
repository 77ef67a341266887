/// One NDEF record: a type name format, a type, an optional identifier and a payload.
///
/// This is the generic, lossless form: every record decodes to it and encodes from it. Typed
/// views (``TextRecord``, ``URIRecord``, ``SmartPosterRecord``, …) convert to and from it.
/// A chunked record on the wire is one `NDEFRecord` here, its payload reassembled.
/// NFC Forum NDEF 1.0 §3.2.
public struct NDEFRecord: Hashable, Sendable {
    /// How to read ``type``.
    public var typeNameFormat: NDEFTypeNameFormat
    /// The record type's bytes (at most 255), interpreted per ``typeNameFormat``.
    ///
    /// A decoded record views the buffer it was decoded from: its three fields are slices of
    /// that one array, so decoding copies no field and allocates nothing per record (a chunked
    /// record's reassembled payload excepted). Keeping a record keeps that buffer alive; copy a
    /// field (``type``, ``identifier``, ``payload``) to hold it alone. Slice indices are those of
    /// the buffer, not zero-based.
    public var typeBytes: ArraySlice<UInt8>
    /// The record identifier's bytes, a URI reference (at most 255); empty when absent. A view,
    /// as ``typeBytes`` is.
    public var identifierBytes: ArraySlice<UInt8>
    /// The payload's bytes (at most 2³²−1). A view, as ``typeBytes`` is.
    public var payloadBytes: ArraySlice<UInt8>

    /// The record type (at most 255 bytes), interpreted per ``typeNameFormat``: an owned copy of
    /// ``typeBytes`` (no copy when the record was built from an array). Setting it replaces the view.
    @inlinable
    public var type: [UInt8] {
        get { Array(typeBytes) }
        set { typeBytes = newValue[...] }
    }
    /// The record identifier, a URI reference (at most 255 bytes); empty when absent. An owned
    /// copy of ``identifierBytes``.
    @inlinable
    public var identifier: [UInt8] {
        get { Array(identifierBytes) }
        set { identifierBytes = newValue[...] }
    }
    /// The payload (at most 2³²−1 bytes): an owned copy of ``payloadBytes``.
    @inlinable
    public var payload: [UInt8] {
        get { Array(payloadBytes) }
        set { payloadBytes = newValue[...] }
    }

    /// Creates a record from its fields; ``validate()`` checks the NDEF rules (the encoder
    /// calls it too).
    @inlinable
    public init(
        typeNameFormat: NDEFTypeNameFormat, type: [UInt8] = [], identifier: [UInt8] = [],
        payload: [UInt8] = []
    ) {
        self.typeNameFormat = typeNameFormat
        self.typeBytes = type[...]
        self.identifierBytes = identifier[...]
        self.payloadBytes = payload[...]
    }

    /// Creates a record whose fields view existing bytes (no copy), e.g. slices of a buffer the
    /// caller decoded or assembled.
    @inlinable
    public init(
        typeNameFormat: NDEFTypeNameFormat, typeBytes: ArraySlice<UInt8>, identifierBytes: ArraySlice<UInt8> = [],
        payloadBytes: ArraySlice<UInt8>
    ) {
        self.typeNameFormat = typeNameFormat
        self.typeBytes = typeBytes
        self.identifierBytes = identifierBytes
        self.payloadBytes = payloadBytes
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
    public var typeString: String { String(decoding: typeBytes, as: UTF8.self) }

    /// Whether this record has the given TNF and type.
    @inlinable
    public func hasType(_ format: NDEFTypeNameFormat, _ type: [UInt8]) -> Bool {
        typeNameFormat == format && typeBytes.elementsEqual(type)
    }

    /// Checks the rules NDEF sets on which TNF may carry which fields, and the field sizes.
    ///
    /// NFC Forum NDEF 1.0 §3.2.6 (empty: all lengths zero; unknown and unchanged: no type;
    /// the others: a type), §3.2.10–3.2.12 (length fields), §3.3.
    public func validate() throws(NDEFError) {
        if typeBytes.count > 255 {
            throw NDEFError(.fieldTooLong, "a record type is at most 255 bytes, this one has \(typeBytes.count)")
        }
        if identifierBytes.count > 255 {
            throw NDEFError(
                .fieldTooLong, "a record identifier is at most 255 bytes, this one has \(identifierBytes.count)")
        }
        if UInt64(payloadBytes.count) > UInt64(UInt32.max) {
            throw NDEFError(.fieldTooLong, "a payload is at most 2^32-1 bytes")
        }
        switch typeNameFormat {
        case .empty:
            if !typeBytes.isEmpty || !identifierBytes.isEmpty || !payloadBytes.isEmpty {
                throw NDEFError(.fieldNotAllowed, "an empty record (TNF 0) has no type, identifier or payload")
            }
        case .unknown:
            if !typeBytes.isEmpty {
                throw NDEFError(.fieldNotAllowed, "an unknown record (TNF 5) has no type")
            }
        case .unchanged:
            throw NDEFError(
                .invalidChunk, "TNF 6 (unchanged) only marks the later chunks of a chunked record on the wire")
        case .reserved:
            throw NDEFError(.reservedTypeNameFormat, "TNF 7 is reserved")
        case .wellKnown, .media, .absoluteURI, .external:
            if typeBytes.isEmpty {
                throw NDEFError(.missingType, "a \(typeNameFormat) record needs a type")
            }
        }
    }
}

extension NDEFRecord: CustomStringConvertible {
    /// `NDEFRecord(TNF, type: "…", id: "…", payload: N bytes)`, leaving out an empty type or identifier.
    public var description: String {
        var s = "NDEFRecord(\(typeNameFormat)"
        if !typeBytes.isEmpty { s += ", type: \"\(typeString)\"" }
        if !identifierBytes.isEmpty { s += ", id: \"\(String(decoding: identifierBytes, as: UTF8.self))\"" }
        s += ", payload: \(payloadBytes.count) bytes)"
        return s
    }
}
