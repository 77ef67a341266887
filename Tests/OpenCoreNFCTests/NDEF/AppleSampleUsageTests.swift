import Foundation
import OpenCoreNFC
import Testing

/// Code written the way iOS apps use Core NFC's NDEF types (our own text, in the style of the
/// published samples). It must compile unchanged but for the import line, including the iOS 13.0
/// spelling `wellKnowTypeTextPayload()`, and behave as on iOS.
@Suite struct AppleSampleUsageTests {
    func describe(_ messages: [NFCNDEFMessage]) -> [String] {
        var lines: [String] = []
        for message in messages {
            for record in message.records {
                switch record.typeNameFormat {
                case .nfcWellKnown:
                    if let url = record.wellKnownTypeURIPayload() {
                        lines.append("url \(url.absoluteString)")
                    } else {
                        let (text, locale) = record.wellKnownTypeTextPayload()
                        if let text { lines.append("text \(text) \(locale?.identifier ?? "")") }
                    }
                case .media:
                    lines.append("media \(String(decoding: record.type, as: UTF8.self))")
                case .absoluteURI, .nfcExternal, .empty, .unknown, .unchanged:
                    lines.append("other")
                @unknown default:
                    lines.append("future")
                }
            }
        }
        return lines
    }

    @Test func readsAMessageAsAnAppWould() throws {
        let uriPayload = NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/item/42")!
        let textPayload = NFCNDEFPayload.wellKnownTypeTextPayload(string: "Item 42", locale: Locale(identifier: "en"))!
        let custom = NFCNDEFPayload(
            format: .media, type: "application/json".data(using: .utf8)!, identifier: Data(),
            payload: "{}".data(using: .utf8)!, chunkSize: 0)
        let message = NFCNDEFMessage(records: [uriPayload, textPayload, custom])
        #expect(describe([message]) == ["url https://example.com/item/42", "text Item 42 en", "media application/json"])
        let (oldText, _) = textPayload.wellKnowTypeTextPayload()
        #expect(oldText == "Item 42")
        #expect(message.length > 0)
    }
}
