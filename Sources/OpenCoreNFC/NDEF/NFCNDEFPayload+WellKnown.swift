import Foundation
import NDEF

/// Core NFC's factories and readers for URI and Text records.
///
/// NFC Forum URI RTD 1.0 (prefix codes, longest match) and Text RTD 1.0 (status byte,
/// language code, UTF-8 text).
@available(iOS 13.0, *)
extension NFCNDEFPayload {
    /// A well-known URI record for `uri`, its longest known prefix abbreviated; nil if `uri` is empty.
    public class func wellKnownTypeURIPayload(string uri: String) -> Self? {
        guard !uri.isEmpty else { return nil }
        let record = URIRecord(uri: uri)
        return Self(
            format: .nfcWellKnown, type: Data(URIRecord.recordType), identifier: Data(),
            payload: Data(record.payload()), chunkSize: 0)
    }

    /// A well-known URI record for `url` (its absolute string).
    public class func wellKnownTypeURIPayload(url: URL) -> Self? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A well-known Text record, UTF-8, in the language of `locale`.
    ///
    /// The language code is the locale's identifier in BCP 47 form (`en_US` → `en-US`); nil if
    /// it is longer than the 63 bytes a Text record allows.
    public class func wellKnownTypeTextPayload(string text: String, locale: Locale) -> Self? {
        let language = locale.identifier.replacingOccurrences(of: "_", with: "-")
        let record = TextRecord(text: text, languageCode: language.isEmpty ? "en" : language)
        guard let payload = try? record.payload() else { return nil }
        return Self(
            format: .nfcWellKnown, type: Data(TextRecord.recordType), identifier: Data(),
            payload: Data(payload), chunkSize: 0)
    }

    /// The URL of a well-known URI record; nil for other records or a malformed payload.
    ///
    /// An IRI whose non-ASCII characters `URL` rejects is returned percent-encoded.
    public func wellKnownTypeURIPayload() -> URL? {
        // The type is checked on the Data and only the payload is converted (not the whole record).
        guard typeNameFormat == .nfcWellKnown, type.elementsEqual(URIRecord.recordType),
            let record = try? URIRecord(payload: [UInt8](payload)[...], strict: true)
        else { return nil }
        return URL(string: record.uri) ?? URL(string: record.asciiURI)
    }

    /// The text and locale of a well-known Text record; `(nil, nil)` for other records.
    public func wellKnownTypeTextPayload() -> (String?, Locale?) {
        guard typeNameFormat == .nfcWellKnown, type.elementsEqual(TextRecord.recordType),
            let record = try? TextRecord(payload: [UInt8](payload)[...], strict: true)
        else { return (nil, nil) }
        return (record.text, Locale(identifier: record.languageCode))
    }

    /// The iOS 13.0 SDK's spelling of ``wellKnownTypeTextPayload(string:locale:)``, which Apple
    /// still ships (deprecated) and published tutorials call; kept so their code compiles unchanged.
    public class func wellKnowTypeTextPayload(string text: String, locale: Locale) -> Self? {
        wellKnownTypeTextPayload(string: text, locale: locale)
    }

    /// The iOS 13.0 SDK's spelling of ``wellKnownTypeTextPayload()``, kept so code written against
    /// that SDK compiles unchanged (not marked deprecated, so it builds without warnings).
    public func wellKnowTypeTextPayload() -> (String?, Locale?) {
        wellKnownTypeTextPayload()
    }
}
