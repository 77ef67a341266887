import Foundation
import NDEF
import OpenCoreNFC
import Testing

@Suite struct NFCNDEFPayloadTests {
    @Test func typeNameFormatHasApplesRawValues() {
        let expected: [(NFCTypeNameFormat, UInt8)] = [
            (.empty, 0), (.nfcWellKnown, 1), (.media, 2), (.absoluteURI, 3), (.nfcExternal, 4), (.unknown, 5), (.unchanged, 6),
        ]
        for (format, raw) in expected { #expect(format.rawValue == raw) }
    }

    @Test func uriPayloadAbbreviatesTheLongestPrefix() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://www.apple.com"))
        #expect(payload.typeNameFormat == .nfcWellKnown)
        #expect(payload.type == Data("U".utf8))
        #expect(payload.identifier.isEmpty)
        #expect(payload.payload == Data([0x02]) + Data("apple.com".utf8))
        #expect(payload.wellKnownTypeURIPayload() == URL(string: "https://www.apple.com"))
        let fromURL = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "tel:+123")!))
        #expect(fromURL.payload == Data([0x05]) + Data("+123".utf8))
        #expect(NFCNDEFPayload.wellKnownTypeURIPayload(string: "") == nil)
    }

    @Test func textPayloadCarriesTheLocale() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeTextPayload(string: "Bonjour", locale: Locale(identifier: "fr_CA")))
        #expect(payload.payload == Data([0x05]) + Data("fr-CA".utf8) + Data("Bonjour".utf8))
        let (text, locale) = payload.wellKnownTypeTextPayload()
        #expect(text == "Bonjour")
        #expect(locale?.identifier == "fr-CA" || locale?.identifier == "fr_CA")
        #expect(payload.wellKnownTypeURIPayload() == nil)
    }

    @Test func readersReturnNilForOtherRecords() throws {
        let media = NFCNDEFPayload(format: .media, type: Data("text/plain".utf8), identifier: Data(), payload: Data("x".utf8))
        #expect(media.wellKnownTypeURIPayload() == nil)
        let (text, locale) = media.wellKnownTypeTextPayload()
        #expect(text == nil && locale == nil)
        let broken = NFCNDEFPayload(format: .nfcWellKnown, type: Data("U".utf8), identifier: Data(), payload: Data())
        #expect(broken.wellKnownTypeURIPayload() == nil)
    }

    @Test func archivesAndCopies() throws {
        let payload = NFCNDEFPayload(
            format: .nfcExternal, type: Data("example.com:t".utf8), identifier: Data([1, 2]), payload: Data([3]), chunkSize: 16)
        let data = try NSKeyedArchiver.archivedData(withRootObject: payload, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NFCNDEFPayload.self, from: data))
        #expect(restored.ndefRecord == payload.ndefRecord)
        #expect(restored.chunkSize == 16)
        let copy = try #require(payload.copy() as? NFCNDEFPayload)
        #expect(copy !== payload)
        #expect(copy.ndefRecord == payload.ndefRecord)
    }
}

@Suite struct NFCNDEFMessageTests {
    @Test func parsesAndMeasures() throws {
        let bytes = Data([0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D])
        let message = try #require(NFCNDEFMessage(data: bytes))
        #expect(message.records.count == 1)
        #expect(message.length == bytes.count)
        #expect(message.records[0].wellKnownTypeURIPayload()?.absoluteString == "http://www.nfc.com")
        #expect(try message.encoded() == bytes)
    }

    @Test func rejectsMalformedData() {
        #expect(NFCNDEFMessage(data: Data()) == nil)
        #expect(NFCNDEFMessage(data: Data([0xD1, 0x01, 0x08, 0x55])) == nil)
        #expect(NFCNDEFMessage(data: Data([0x51, 0x01, 0x00, 0x55])) == nil, "MB missing")
    }

    @Test func lengthCountsEachRecordsChunking() throws {
        let big = NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: Data(count: 600), chunkSize: 200)
        let small = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://x.y"))
        let message = NFCNDEFMessage(records: [small, big])
        let encoded = try message.encoded()
        #expect(message.length == encoded.count)
        #expect(encoded.count == (3 + 1 + 4) + 3 * (3 + 200) + 3)  // URI record + three chunks, type on the first
        let reparsed = try #require(NFCNDEFMessage(data: encoded))
        #expect(reparsed.ndefMessage == message.ndefMessage)
    }

    @Test func encodingReportsTheBadRecord() {
        let bad = NFCNDEFPayload(format: .empty, type: Data(), identifier: Data(), payload: Data([1]))
        let good = NFCNDEFPayload(format: .unknown, type: Data(), identifier: Data(), payload: Data())
        do {
            _ = try NFCNDEFMessage(records: [good, bad]).encoded()
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .fieldNotAllowed)
            #expect(error.recordIndex == 1)
        }
    }

    @Test func archivesWithItsRecords() throws {
        let message = NFCNDEFMessage(records: [try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://a.b"))])
        let data = try NSKeyedArchiver.archivedData(withRootObject: message, requiringSecureCoding: true)
        let restored = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NFCNDEFMessage.self, NFCNDEFPayload.self, NSArray.self], from: data)
                as? NFCNDEFMessage)
        #expect(restored.ndefMessage == message.ndefMessage)
    }
}
