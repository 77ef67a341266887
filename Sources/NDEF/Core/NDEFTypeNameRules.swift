/// The rules a record TYPE follows under each TNF (NFC Forum NDEF 1.0 §3.2.6): an NFC RTD name for
/// well-known types (RTD 1.0 §2.1), an RFC 2046 media type, an RFC 3986 absolute URI, an external
/// `domain:type` (RTD 1.0 §2.2). Strict decoding applies them where a type appears without being
/// interpreted: nested records a Smart Poster or a handover message carries as "other records",
/// and a Handover Carrier record's carrier type (Connection Handover 1.4 §6.3).
enum NDEFTypeNameRules {
    /// Throws `.invalidValue` naming the type and the rule it breaks; TNFs without a type pass.
    static func check(_ type: [UInt8], format: NDEFTypeNameFormat) throws(NDEFError) {
        let text = String(decoding: type, as: UTF8.self)
        switch format {
        case .wellKnown where !TextCoding.isRTDName(type):
            throw NDEFError(.invalidValue, "well-known type \"\(text)\" has characters RTD names do not allow")
        case .media where !MIMERecord.isValidMediaType(type):
            throw NDEFError(.invalidValue, "\"\(text)\" is not a media type (type/subtype)")
        case .absoluteURI where !TextCoding.isAbsoluteURI(type):
            throw NDEFError(.invalidValue, "absolute-URI type \"\(text)\" is not an absolute URI (scheme:…)")
        case .external:
            _ = try ExternalRecord.split(type, strict: true)
        default:
            break
        }
    }
}
