/// A record seen through the typed view its TNF and type call for.
public enum NDEFTypedRecord: Hashable, Sendable {
    case text(TextRecord)
    case uri(URIRecord)
    case smartPoster(SmartPosterRecord)
    case deviceInformation(DeviceInformationRecord)
    case signature(SignatureRecord)
    case mime(MIMERecord)
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
            switch record.type {
            case TextRecord.recordType: return .text(try TextRecord(record, options: options))
            case URIRecord.recordType: return .uri(try URIRecord(record, options: options))
            case SmartPosterRecord.recordType: return .smartPoster(try SmartPosterRecord(record, options: options))
            case DeviceInformationRecord.recordType:
                return .deviceInformation(try DeviceInformationRecord(record, options: options))
            case SignatureRecord.recordType: return .signature(try SignatureRecord(record, options: options))
            default: return nil
            }
        case .media:
            return .mime(try MIMERecord(record, options: options))
        case .external:
            return .external(try ExternalRecord(record, options: options))
        case .empty, .absoluteURI, .unknown, .unchanged, .reserved:
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
