import Foundation
import NFCBackgroundConfiguration
import OpenCoreNFC
import Testing

/// The `--apps` file (docs/background.md), parsed in process: each mistake names its key path.
struct BackgroundConfigurationTests {
    private func parse(_ text: String, files: [String: String] = [:]) throws -> BackgroundConfiguration {
        try BackgroundConfiguration.parse(Data(text.utf8), relativeTo: URL(fileURLWithPath: "/config")) { url in
            files[url.path].map { Data($0.utf8) }
        }
    }

    @Test func readsAppsAssociationsAndHandlers() throws {
        let configuration = try parse(
            #"""
            {"apps": [{"appID": "ABCDE12345.com.example.shop", "associatedDomains": ["applinks:shop.example.com"],
                       "handler": ["/usr/bin/open-shop", "{url}"]}],
             "associations": {"shop.example.com": "shop-aasa.json"},
             "handlers": {"mail": ["thunderbird", "-compose"]}}
            """#,
            files: [
                "/config/shop-aasa.json":
                    #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/*"}]}]}}"#
            ]
        )
        #expect(configuration.reader.apps.map(\.appID) == ["ABCDE12345.com.example.shop"])
        #expect(configuration.reader.associations.keys.sorted() == ["shop.example.com"])
        #expect(configuration.handler(for: .app("ABCDE12345.com.example.shop")) == ["/usr/bin/open-shop", "{url}"])
        #expect(configuration.handler(for: .system(.mail)) == ["thunderbird", "-compose"])
        #expect(configuration.handler(for: .system(.safari)) == nil)
    }

    @Test(arguments: [
        (#"{"apps": [{"associatedDomains": []}]}"#, "apps[0].appID"),
        (#"{"apps": [{"appID": "T.x", "associatedDomains": ["applinks:bad host"]}]}"#, "apps[0].associatedDomains[0]"),
        (#"{"apps": {"appID": "T.x"}}"#, "apps"),
        (#"{"handlers": {"browser": ["x"]}}"#, "handlers.browser"),
        (#"{"handlers": {"mail": []}}"#, "handlers.mail"),
        (#"{"handlers": {"mail": [""]}}"#, "handlers.mail"),
        (#"{"associations": {"a.com": "missing.json"}}"#, "associations.a.com"),
        (#"{"app": []}"#, "app"),
        ("[]", ""),
    ])
    func mistakesNameTheirKeyPath(text: String, path: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch let error as BackgroundConfigurationError {
            #expect(error.code == .invalid)
            #expect(error.path == path, "\(error)")
        } catch {
            Issue.record("not a BackgroundConfigurationError: \(error)")
        }
    }

    /// Association files are read through the given reader, relative to the file's folder.
    @Test func relativeAssociationPathsAreResolvedAgainstTheFolder() throws {
        var asked: [String] = []
        _ = try? BackgroundConfiguration.parse(
            Data(#"{"associations": {"a.com": "sub/a.json"}}"#.utf8), relativeTo: URL(fileURLWithPath: "/etc/nfc")
        ) { url in
            asked.append(url.path)
            return nil
        }
        #expect(asked == ["/etc/nfc/sub/a.json"])
    }
}
