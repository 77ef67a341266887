/// A record seen through the typed view its TNF and type call for.
public enum NDEFTypedRecord: Hashable, Sendable {
    /// A well-known Text record (`T`).
    case text(TextRecord)
    /// A well-known URI record (`U`).
    case uri(URIRecord)
    /// A well-known Smart Poster record (`Sp`).
    case smartPoster(SmartPosterRecord)
    /// A well-known Device Information record (`Di`).
    case deviceInformation(DeviceInformationRecord)
    /// A well-known Signature record (`Sig`).
    case signature(SignatureRecord)
    /// A media-type record (TNF 2).
    case mime(MIMERecord)
    /// An external-type record (TNF 4).
    case external(ExternalRecord)

    /// Interprets a record by its TNF and type.
    ///
    /// Returns nil when no typed view applies (an unknown well-known type, an absolute-URI,
    /// unknown or empty record); throws when a view applies but the payload breaks its rules.
    public static func interpret(_ record: NDEFRecord, options: NDEFDecodingOptions = .strict) throws(NDEFError)
        -> NDEFTypedRecord?
    {
        switch record.typeNameFormat {
        case .wellKnown:
            switch WellKnownTypes.kind(of: record.typeBytes) {
            case .text?: return .text(try TextRecord(payload: record.payloadBytes, strict: options.isStrict))
            case .uri?: return .uri(try URIRecord(payload: record.payloadBytes, strict: options.isStrict))
            case .smartPoster?: return .smartPoster(try SmartPosterRecord(record, options: options))
            case .deviceInformation?: return .deviceInformation(try DeviceInformationRecord(record, options: options))
            case .signature?: return .signature(try SignatureRecord(record, options: options))
            case nil:
                if options.isStrict && !TextCoding.isRTDName(record.type) {
                    throw NDEFError(.invalidValue, "well-known type \"\(record.typeLatin1)\" has characters RTD names do not allow")
                }
                return nil
            }
        case .media:
            return .mime(try MIMERecord(record, options: options))
        case .external:
            return .external(try ExternalRecord(record, options: options))
        case .absoluteURI:
            if options.isStrict && !TextCoding.isAbsoluteURI(record.type) {
                throw NDEFError(.invalidValue, "absolute-URI type \"\(record.typeLatin1)\" is not an absolute URI (scheme:…)")
            }
            return nil
        case .empty, .unknown, .unchanged, .reserved:
            return nil
        }
    }

    /// The generic record for this value.
    public func record() throws(NDEFError) -> NDEFRecord {
        switch self {
        case .text(let r): return try r.record()
        case .uri(let r): return try r.record()
        case .smartPoster(let r): return try r.record()
        case .deviceInformation(let r): return try r.record()
        case .signature(let r): return try r.record()
        case .mime(let r): return try r.record()
        case .external(let r): return try r.record()
        }
    }
}

extension NDEFRecord {
    /// This record through its typed view (see ``NDEFTypedRecord/interpret(_:options:)``).
    public func typed(options: NDEFDecodingOptions = .strict) throws(NDEFError) -> NDEFTypedRecord? {
        try NDEFTypedRecord.interpret(self, options: options)
    }
}
