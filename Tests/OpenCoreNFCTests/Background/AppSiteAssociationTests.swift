import Foundation
import Testing

@testable import OpenCoreNFC

@Suite("apple-app-site-association files")
struct AppSiteAssociationTests {
    static let shop = "ABCDE12345.com.example.shop"

    /// Apple's documented example, shaped as real files are.
    static let current = """
        {"applinks": {"defaults": {"caseSensitive": true},
          "details": [{"appIDs": ["\(shop)", "ABCDE12345.com.example.shop.beta"],
            "components": [
              {"#": "no_universal_links", "exclude": true, "comment": "fragment opt-out"},
              {"/": "/buy/*", "comment": "every purchase page"},
              {"/": "/help/website/*", "exclude": true},
              {"/": "/help/*", "?": {"articleNumber": "????"}},
              {"/": "/search", "?": "q=*"},
              {"/": "/Docs/*", "caseSensitive": false},
              {"/": "/caf%C3%A9/*"},
              {"/": "/th\\u00e9/*", "percentEncoded": false}
            ]}]},
         "webcredentials": {"apps": ["\(shop)"]}}
        """

    static let legacy = """
        {"applinks": {"apps": [], "details": [{"appID": "\(shop)", "paths": ["NOT /videos/2010/*", "/videos/*", "/news/"]}]}}
        """

    func allows(_ json: String, _ url: String, app: String = shop) throws -> Bool {
        let file = try AppSiteAssociation(json: Data(json.utf8))
        return file.allows(try #require(URLComponents(string: url)), for: app)
    }

    @Test(arguments: [
        ("https://shop.example.com/buy/shoes", true),
        ("https://shop.example.com/buy/shoes#no_universal_links", false),
        ("https://shop.example.com/help/website/faq", false),
        ("https://shop.example.com/help/topics?articleNumber=1234", true),
        ("https://shop.example.com/help/topics?articleNumber=123", false),
        ("https://shop.example.com/help/topics?other=1&articleNumber=9876", true),
        ("https://shop.example.com/help/topics", false),
        ("https://shop.example.com/search?q=red+shoes", true),
        ("https://shop.example.com/search", false),
        ("https://shop.example.com/docs/readme", true),
        ("https://shop.example.com/Buy/shoes", false),
        ("https://shop.example.com/caf%C3%A9/menu", true),
        ("https://shop.example.com/th%C3%A9/menu", true),
        ("https://shop.example.com/", false),
    ])
    func components(url: String, expected: Bool) throws {
        #expect(try allows(Self.current, url) == expected, "\(url)")
    }

    @Test func otherAppsAreNotCovered() throws {
        #expect(try allows(Self.current, "https://shop.example.com/buy/x", app: "ABCDE12345.com.example.shop.beta"))
        #expect(try !allows(Self.current, "https://shop.example.com/buy/x", app: "ZZZZZ99999.com.other"))
    }

    @Test(arguments: [
        ("https://x.com/videos/2010/keynote", false),
        ("https://x.com/videos/2019/keynote", true),
        ("https://x.com/news/", true),
        ("https://x.com/news/today", false),
        ("https://x.com/about", false),
    ])
    func legacyPaths(url: String, expected: Bool) throws {
        #expect(try allows(Self.legacy, url) == expected, "\(url)")
    }

    @Test func firstMatchingRuleDecides() throws {
        let json = """
            {"applinks": {"details": [{"appIDs": ["\(Self.shop)"], "components": [{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}]}]}}
            """
        #expect(try allows(json, "https://x.com/a/private/1"), "the earlier including rule wins")
    }

    @Test func componentWithoutPathMatchesAnyPath() throws {
        let json = ##"{"applinks": {"details": [{"appIDs": ["\##(Self.shop)"], "components": [{"#": "open"}]}]}}"##
        #expect(try allows(json, "https://x.com/anything/at/all#open"))
        #expect(try !allows(json, "https://x.com/anything"))
    }

    @Test(arguments: [
        ("[]", ""),
        (#"{"applinks": []}"#, "applinks"),
        (#"{"applinks": {"details": {}}}"#, "applinks.details"),
        (#"{"applinks": {"details": [{"appIDs": "x"}]}}"#, "applinks.details[0].appIDs"),
        (#"{"applinks": {"details": [{"appIDs": ["x"], "components": [{"/": 3}]}]}}"#, "applinks.details[0].components[0]./"),
        (#"{"applinks": {"details": [{"appIDs": ["x"], "components": [{"?": 3}]}]}}"#, "applinks.details[0].components[0].?"),
        (#"{"applinks": {"details": [{"appIDs": ["x"], "components": [{"?": {"k": 1}}]}]}}"#, "applinks.details[0].components[0].?.k"),
        (
            #"{"applinks": {"details": [{"appIDs": ["x"], "components": [{"exclude": "yes"}]}]}}"#,
            "applinks.details[0].components[0].exclude"
        ),
        (#"{"applinks": {"defaults": {"caseSensitive": "no"}}}"#, "applinks.defaults.caseSensitive"),
        (#"{"applinks": {"details": [{"appID": "x", "paths": ["/a", 2]}]}}"#, "applinks.details[0].paths[1]"),
    ])
    func malformedFilesNameThePath(json: String, path: String) {
        #expect(throws: AppSiteAssociationError.self) { try AppSiteAssociation(json: Data(json.utf8)) }
        do {
            _ = try AppSiteAssociation(json: Data(json.utf8))
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func notJSON() {
        #expect(throws: AppSiteAssociationError.self) { try AppSiteAssociation(json: Data("{applinks".utf8)) }
    }
}
