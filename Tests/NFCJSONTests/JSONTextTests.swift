import NFCJSON
import Testing

/// RFC 8259 parsing with locations.
struct JSONTextTests {
    @Test func parsesEveryKindAndKeepsLocations() throws {
        let node = try JSONText.parse(Array("{\n  \"a\": [1, -2.5e3, true, null],\n  \"b\": \"\\u00e9\\ud83d\\ude00\"\n}".utf8))
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.0) == ["a", "b"])
        #expect(node["b"]?.value == .string("é😀"))
        #expect(node["a"]?.location == JSONLocation(offset: 9, line: 2, column: 8))
        guard case .array(let items)? = node["a"]?.value else {
            Issue.record("not an array")
            return
        }
        #expect(items.map(\.value) == [.number("1"), .number("-2.5e3"), .bool(true), .null])
    }

    @Test(arguments: [
        ("{\"a\": 1", 7, "the text ends early"),
        ("[1,]", 3, "expected a value"),
        ("{\"a\": 1, \"a\": 2}", 9, "appears twice"),
        ("01", 1, "cannot start with 0"),
        ("\"a\u{01}\"", 2, "control character"),
        ("\"\\ud800\"", 7, "lone high surrogate"),
        ("{} x", 3, "text after"),
        ("{'a': 1}", 1, "member name"),
    ])
    func refusesWithTheOffset(text: String, offset: Int, reason: String) {
        do {
            _ = try JSONText.parse(Array(text.utf8))
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == .syntax)
            #expect(error.location?.offset == offset, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test(arguments: [3, 15, 16, 17, 40])
    func duplicateKeysAreFoundInObjectsOfAnySize(size: Int) {
        let members = (0..<size).map { "\"k\($0)\": \($0)" }
        #expect(throws: Never.self) { try JSONText.parse(Array("{\(members.joined(separator: ","))}".utf8)) }
        for duplicate in [0, size - 1] {
            let text = "{\(members.joined(separator: ",")), \"k\(duplicate)\": 0}"
            #expect(throws: JSONError(.syntax, at: nil, "")) { try JSONText.parse(Array(text.utf8)) }
        }
    }

    @Test func stringsWithAndWithoutEscapesDecodeAlike() throws {
        let plain = try JSONText.parse(Array(#""héllo""#.utf8))
        let escaped = try JSONText.parse(Array(#""héllo""#.utf8))
        #expect(plain.value == .string("héllo") && escaped.value == plain.value)
        #expect(throws: JSONError.self) { try JSONText.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
    }

    @Test func depthIsLimited() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError(.tooDeep, at: nil, "")) { try JSONText.parse(Array(deep.utf8)) }
        #expect(throws: Never.self) {
            try JSONText.parse(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8))
        }
    }

    @Test func everyProperPrefixOfADocumentIsRefused() {
        let text = Array("{\"uid\": \"04a1\", \"counters\": [0, 1, 2], \"ok\": true}".utf8)
        for end in 0..<text.count {
            #expect(throws: JSONError.self) { try JSONText.parse(Array(text[..<end])) }
        }
    }
}
