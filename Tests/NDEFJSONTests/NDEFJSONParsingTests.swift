import NDEF
import NDEFJSON
import NFCJSON
import Testing

/// The JSON form's encoding side, in process: each failure has its code and where.
struct NDEFJSONParsingTests {
    private func failure(_ text: String) -> NDEFJSONError? {
        do {
            _ = try NDEFJSON.message(parsing: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func buildsTheRecordsItDescribes() throws {
        let message = try NDEFJSON.message(
            parsing: Array(#"{"records": [{"uri": "https://example.com"}, {"text": "Hi", "language": "de"}]}"#.utf8))
        #expect(
            try message.encoded() == [0x91, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8) + [0x51, 0x01, 0x05, 0x54, 0x02]
                + Array("deHi".utf8))
    }

    @Test func notJSONSaysWhereItStops() throws {
        let error = try #require(failure(#"{"records": [}"#))
        #expect(error.code == .invalidJSON)
        #expect(error.offset == 13)
        #expect(error.path == nil)
    }

    @Test func aMisspeltKeyIsUnknownAtItsPath() throws {
        let error = try #require(failure(#"{"records": [{"text": "Hi", "langauge": "en"}]}"#))
        #expect(error.code == .unknownKey)
        #expect(error.path == "$.records[0].langauge")
        #expect(error.description.hasPrefix("$.records[0].langauge: unknown key (known here: "))
    }

    @Test func aWrongTypeIsAnInvalidValueAtItsPath() throws {
        let error = try #require(failure(#"{"records": [{"smartPoster": {"uri": "https://a.example", "action": "jump"}}]}"#))
        #expect(error.code == .invalidValue)
        #expect(error.path == "$.records[0].smartPoster.action")
    }

    @Test func aMissingRecordsArrayIsAtTheRoot() throws {
        let error = try #require(failure(#"{"record": []}"#))
        #expect(error.code == .invalidValue)
        #expect(error.path == "$")
    }

    /// A record that breaks its type is refused for that, not for keys its rendering lacks.
    @Test func whatWouldNotReadBackIsSaidBeforeUnknownKeys() throws {
        let error = try #require(failure(#"{"records": [{"text": "Hi", "language": ""}]}"#))
        #expect(error.code == .unreadable)
        #expect(error.path == "$.records[0]")
    }

    @Test func typedConnectivityErrorsKeepTheirPath() throws {
        let error = try #require(failure(#"{"records": [{"handoverSelect": {"version": "x"}}]}"#))
        #expect(error.code == .invalidValue)
        #expect(error.path?.hasPrefix("$.records[0].handoverSelect") == true)
    }

    /// Decode then encode gives the same bytes (the form loses nothing a reader needs).
    @Test(arguments: [
        "d10222537091010e55036e66632d666f72756d2e6f726751010c5402656e48656c6c6f204e4643",
        "d20a00746578742f706c61696e",
    ])
    func roundTrips(_ hex: String) throws {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        let message = try NDEFMessage(decoding: bytes)
        let json = NDEFJSON.json(for: message, options: .strict)
        let again = try NDEFJSON.message(parsing: Array(json.serialized().utf8))
        #expect(try again.encoded() == bytes)
    }
}
