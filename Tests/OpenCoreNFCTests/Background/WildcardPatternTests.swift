import Testing

@testable import OpenCoreNFC

@Suite("apple-app-site-association patterns")
struct WildcardPatternTests {
    @Test(arguments: [
        ("/buy/*", "/buy/", true), ("/buy/*", "/buy/shoes/red", true), ("/buy/*", "/buy", false),
        ("/help/????", "/help/1234", true), ("/help/????", "/help/123", false), ("/help/????", "/help/12345", false),
        ("/a/?*", "/a/", false), ("/a/?*", "/a/x", true), ("*", "", true), ("", "", true), ("", "/", false),
        ("/x*y*z", "/xaybz", true), ("/x*y*z", "/xayb", false), ("*.pdf", "/docs/a.pdf", true),
        ("/exact", "/exact", true), ("/exact", "/Exact", false),
    ])
    func caseSensitive(pattern: String, subject: String, expected: Bool) {
        #expect(WildcardPattern(pattern).matches(subject) == expected, "\(pattern) ~ \(subject)")
    }

    @Test func caseInsensitive() {
        #expect(WildcardPattern("/Shop/*", caseSensitive: false).matches("/sHOP/Item"))
        #expect(!WildcardPattern("/Shop/*", caseSensitive: true).matches("/shop/item"))
    }

    @Test("A hostile pattern costs at most pattern × subject steps")
    func hostilePattern() {
        let pattern = WildcardPattern(String(repeating: "*a", count: 200) + "b")
        #expect(!pattern.matches(String(repeating: "a", count: 5_000)))
    }
}
