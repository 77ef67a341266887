import NDEF
import NFCTestSupport
import Testing

@Suite struct SmartPosterRecordTests {
    @Test func decodesTheVector() throws {
        let message = try NDEFMessage(
            decoding: hexBytes(
                "d1 02 22 53 70 91 01 0e 55 03 6e 66 63 2d 66 6f 72 75 6d 2e 6f 72 67 51 01 0c 54 02 65 6e 48 65 6c 6c 6f 20 4e 46 43"))
        let sp = try SmartPosterRecord(message.records[0])
        #expect(sp.uri.uri == "http://nfc-forum.org")
        #expect(sp.title(language: "EN") == "Hello NFC")
        #expect(sp.action == nil && sp.size == nil && sp.type == nil && sp.icons.isEmpty)
        #expect(try sp.record() == message.records[0])
    }

    /// A nested record that is neither URI, title, action, size, type nor icon is kept in
    /// `otherRecords`; strict decoding holds it to its own type's rules, as at the top level.
    @Test func strictDecodingHoldsOtherNestedRecordsToTheirRules() throws {
        let uri: [UInt8] = [0x91, 0x01, 0x05, 0x55, 0x04] + Array("abc.".utf8)
        func poster(_ other: [UInt8]) -> NDEFRecord { wellKnown("Sp", uri + other) }
        // A media record whose type is not a media type ("ima\u{80}e/jpeg").
        let badMedia: [UInt8] = [0x52, 0x0A, 0x02] + Array("ima".utf8) + [0x80] + Array("e/jpeg".utf8) + [0xE3, 0xEA]
        #expect(errorCode { _ = try SmartPosterRecord(poster(badMedia)) } == .invalidValue)
        #expect(try SmartPosterRecord(poster(badMedia), options: lenient).otherRecords.count == 1)
        // A well-known type with a character RTD names do not allow.
        let badName: [UInt8] = [0x51, 0x02, 0x01, 0x61, 0x20, 0x00]
        #expect(errorCode { _ = try SmartPosterRecord(poster(badName)) } == .invalidValue)
        // A valid media record of another kind is kept as it is.
        let text: [UInt8] = [0x52, 0x0A, 0x02] + Array("text/plain".utf8) + Array("hi".utf8)
        let sp = try SmartPosterRecord(poster(text))
        #expect(sp.otherRecords == [NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array("hi".utf8))])
        #expect(try sp.record() == poster(text))
    }

    @Test func roundTripsEveryPart() throws {
        let sp = SmartPosterRecord(
            uri: URIRecord(uri: "https://www.example.com/menu"),
            titles: [TextRecord(text: "Menu", languageCode: "en"), TextRecord(text: "Carte", languageCode: "fr", encoding: .utf16)],
            action: .save, size: 123_456, type: "text/html",
            icons: [MIMERecord(mimeType: "image/png", data: [0x89, 0x50, 0x4E, 0x47])],
            otherRecords: [NDEFRecord(typeNameFormat: .external, type: "example.com:x", payload: [1])])
        let record = try sp.record()
        #expect(try SmartPosterRecord(record) == sp)
        let inner = try NDEFMessage(decoding: record.payload)
        #expect(inner.records.count == 8)  // U, T, T, act, s, t, icon, other
        #expect(inner.records.contains(NDEFRecord(typeNameFormat: .wellKnown, type: "act", payload: [1])))
        #expect(inner.records.contains(NDEFRecord(typeNameFormat: .wellKnown, type: "s", payload: [0x00, 0x01, 0xE2, 0x40])))
    }

    private func poster(_ records: [NDEFRecord]) throws -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: "Sp", payload: try NDEFMessage(records: records).encoded())
    }

    @Test func rejectsPostersThatBreakTheRules() throws {
        let uri = try URIRecord(uri: "http://a").record()
        let en = try TextRecord(text: "a", languageCode: "en").record()
        let cases: [([NDEFRecord], NDEFError.Code)] = [
            ([en], .invalidPayload),
            ([uri, uri], .invalidPayload),
            ([uri, en, en], .invalidPayload),
            ([uri, NDEFRecord(typeNameFormat: .wellKnown, type: "act", payload: [3])], .invalidPayload),
            ([uri, NDEFRecord(typeNameFormat: .wellKnown, type: "act", payload: [0, 0])], .invalidPayload),
            ([uri, NDEFRecord(typeNameFormat: .wellKnown, type: "s", payload: [1, 2, 3])], .invalidPayload),
            ([NDEFRecord(typeNameFormat: .wellKnown, type: "U", payload: [])], .invalidPayload),
        ]
        for (records, code) in cases {
            #expect(ndefError { try SmartPosterRecord(try poster(records)) }?.code == code, "\(records)")
        }
        #expect(
            ndefError { try SmartPosterRecord(NDEFRecord(typeNameFormat: .wellKnown, type: "Sp", payload: [0xD1])) }?.code == .truncated)
        #expect(throws: Never.self) { try SmartPosterRecord(try poster([uri, uri]), options: .lenient) }
    }

    @Test func nestingBeyondTheLimitIsRefused() throws {
        // A Smart Poster whose "other record" is a Smart Poster, and so on: depth grows by one each time.
        var record = try SmartPosterRecord(uri: URIRecord(uri: "http://a")).record()
        for _ in 0..<6 {
            record = try SmartPosterRecord(uri: URIRecord(uri: "http://a"), otherRecords: [record]).record()
        }
        #expect(throws: Never.self) { try SmartPosterRecord(record) }  // others are not interpreted
        let shallow = NDEFDecodingOptions(maxNestingDepth: 0)
        #expect(ndefError { try SmartPosterRecord(record, options: shallow) }?.code == .limitExceeded)
        #expect(throws: Never.self) { try SmartPosterRecord(record, options: NDEFDecodingOptions(maxNestingDepth: 1)) }
        #expect(ndefError { try SmartPosterRecord(record, options: shallow.nested()) }?.code == .limitExceeded)
    }
}
