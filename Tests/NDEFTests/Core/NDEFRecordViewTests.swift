import NDEF
import Testing

/// Decoded records view the buffer they were decoded from (no field is copied), and behave as
/// values all the same: equal to records built from arrays, hashed alike, independent once set.
@Suite struct NDEFRecordViewTests {
    static let message: [UInt8] = {
        let records = [
            NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], identifier: Array("#1".utf8), payload: [0x04] + Array("example.org".utf8)),
            NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array("hello".utf8)),
        ]
        return (try? NDEFMessage(records: records).encoded()) ?? []
    }()

    @Test("Every field of a decoded record is a slice of the input's own storage")
    func fieldsViewTheInput() throws {
        let input = Self.message
        let records = try NDEFMessage(decoding: input).records
        #expect(records.count == 2)
        try input.withUnsafeBufferPointer { whole in
            let base = try #require(whole.baseAddress)
            for record in records {
                for field in [record.typeBytes, record.identifierBytes, record.payloadBytes] where !field.isEmpty {
                    field.withUnsafeBufferPointer { view in
                        #expect(view.baseAddress == base + field.startIndex, "the field is the input's bytes, not a copy")
                    }
                }
            }
        }
        // The indices are the input's: the first record's type starts after its 4-byte header.
        #expect(records[0].typeBytes.startIndex == 4)
        #expect(Array(records[1].payloadBytes) == Array("hello".utf8))
    }

    @Test("Decoded and built records are equal and hash alike; setting a field copies nothing back")
    func valueSemantics() throws {
        let decoded = try NDEFMessage(decoding: Self.message).records[0]
        let built = NDEFRecord(
            typeNameFormat: .wellKnown, type: [0x55], identifier: Array("#1".utf8), payload: [0x04] + Array("example.org".utf8))
        #expect(decoded == built)
        #expect(decoded.hashValue == built.hashValue)
        #expect(decoded.type == [0x55] && decoded.payload.first == 0x04, "owned copies, zero-based")
        var changed = decoded
        changed.payload = [0x00] + Array("x".utf8)
        #expect(changed.payloadBytes.startIndex == 0)
        #expect(decoded.payload == [0x04] + Array("example.org".utf8), "the original is untouched")
        #expect(try NDEFMessage(records: [changed]).encoded().suffix(2) == [0x00, 0x78])
    }

    @Test("A chunked record's payload is reassembled into storage of its own")
    func chunkedRecordOwnsItsPayload() throws {
        let record = NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: Array(repeating: 7, count: 40))
        let bytes = try NDEFMessage(records: [record]).encoded(chunkSize: 16)
        let decoded = try NDEFMessage(decoding: bytes).records
        #expect(decoded == [record])
        #expect(decoded[0].payloadBytes.startIndex == 0, "its own array")
    }

    @Test("URI text: strict refuses bad UTF-8 before control characters; lenient repairs and keeps the prefix")
    func uriDecoding() throws {
        func uri(_ payload: [UInt8], _ options: NDEFDecodingOptions) throws(NDEFError) -> String {
            try URIRecord(NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: payload), options: options).uri
        }
        #expect(try uri([0x04] + Array("example.org/é".utf8), .strict) == "https://example.org/é")
        #expect(throws: NDEFError.self) { try uri([0x04, 0x61, 0xFF, 0x01], .strict) }
        do {
            _ = try uri([0x04, 0x61, 0xFF, 0x01], .strict)
        } catch {
            #expect(error.code == .invalidEncoding, "UTF-8 is checked first")
        }
        do {
            _ = try uri([0x04, 0x61, 0x01], .strict)
        } catch {
            #expect(error.code == .invalidPayload, "a control character")
        }
        #expect(try uri([0x04, 0x61, 0xFF], .lenient) == "https://a\u{FFFD}")
        #expect(try uri([0x99, 0x61], .lenient) == "a", "a reserved code reads as no prefix")
    }
}
