import NFCJSON
import Testing

/// Decoding with paths, exact numbers and unknown-field detection.
struct JSONNodeDecoderTests {
    struct Image: Decodable, Equatable {
        var uid: String
        var counters: [UInt32]
        var inner: Inner?
        struct Inner: Decodable, Equatable { var flag: Bool }
    }

    private func failure(_ text: String) -> JSONError? {
        do {
            _ = try JSONNodeDecoder().decode(Image.self, from: Array(text.utf8))
            return nil
        } catch let error as JSONError {
            return error
        } catch {
            Issue.record("not a JSONError: \(error)")
            return nil
        }
    }

    @Test func decodes() throws {
        let image = try JSONNodeDecoder().decode(
            Image.self, from: Array(#"{"uid": "04", "counters": [0, 4294967295], "inner": {"flag": true}}"#.utf8))
        #expect(image == Image(uid: "04", counters: [0, 4_294_967_295], inner: .init(flag: true)))
    }

    @Test func aNegativeCounterNamesItsPathAndLine() throws {
        let error = try #require(failure("{\"uid\": \"04\",\n \"counters\": [0, -1]}"))
        #expect(error.code == .invalidValue)
        #expect(error.path == "counters[1]")
        #expect(error.location?.line == 2)
        #expect(error.reason == "expected an integer from 0 to 4294967295, found -1")
    }

    @Test(arguments: [
        (#"{"uid": "04", "counters": [1.5]}"#, "counters[0]", "found 1.5"),
        (#"{"uid": "04", "counters": [4294967296]}"#, "counters[0]", "found 4294967296"),
        (#"{"uid": 4, "counters": []}"#, "uid", "expected a string, found the number 4"),
        (#"{"uid": "04", "counters": {}}"#, "counters", "expected an array, found an object"),
        (#"{"uid": "04", "counters": [], "inner": []}"#, "inner", "expected an object, found an array"),
        (#"{"counters": []}"#, "uid", "missing"),
    ])
    func wrongShapesNameTheField(text: String, path: String, reason: String) throws {
        let error = try #require(failure(text))
        #expect(error.path == path, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
        #expect(!error.description.contains("Swift") && !error.description.contains("Dictionary<"), "\(error)")
    }

    @Test func aMisspeltFieldIsAnError() throws {
        let error = try #require(failure(#"{"uid": "04", "counters": [], "inner": {"flag": true, "flga": false}}"#))
        #expect(error.code == .unknownField)
        #expect(error.path == "inner.flga")
        let lenient = try JSONNodeDecoder(rejectUnknownFields: false).decode(
            Image.self, from: Array(#"{"uid": "04", "counters": [], "x": 1}"#.utf8))
        #expect(lenient.uid == "04")
    }

    enum Model: String, Decodable { case ntag213, ntag215 }
    struct Tagged: Decodable { var model: Model }

    @Test func anUnknownEnumValueIsNamedWithoutSwiftTypes() throws {
        do {
            _ = try JSONNodeDecoder().decode(Tagged.self, from: Array(#"{"model": "ntag999"}"#.utf8))
            Issue.record("decoded")
        } catch let error as JSONError {
            #expect(error.path == "model" && error.reason == "\"ntag999\" is not a known value", "\(error)")
            #expect(!error.description.contains("Model"))
        }
    }

    @Test func dictionariesUseAllTheirKeys() throws {
        let value = try JSONNodeDecoder().decode([String: [Int]].self, from: Array(#"{"a": [1], "b": []}"#.utf8))
        #expect(value == ["a": [1], "b": []])
    }
}
