import Testing

@testable import OpenCoreNFC

@Suite("Associated Domains entitlement entries")
struct AssociatedDomainTests {
    @Test func plainDomain() throws {
        let domain = try #require(AssociatedDomain(entitlement: "applinks:Shop.Example.com"))
        #expect(domain.host == "shop.example.com" && !domain.isWildcard && domain.mode == .standard)
        #expect(domain.covers(host: "SHOP.example.com"))
        #expect(!domain.covers(host: "www.shop.example.com"))
        #expect(!domain.covers(host: "example.com"))
    }

    @Test func wildcardCoversSubdomainsOnly() throws {
        let domain = try #require(AssociatedDomain(entitlement: "applinks:*.example.com"))
        #expect(domain.isWildcard && domain.host == "example.com")
        #expect(domain.covers(host: "a.example.com") && domain.covers(host: "a.b.example.com"))
        #expect(!domain.covers(host: "example.com"))
        #expect(!domain.covers(host: "badexample.com"))
    }

    @Test func modes() throws {
        let developer = try #require(AssociatedDomain(entitlement: "applinks:dev.example.com?mode=developer"))
        #expect(developer.mode == .developer)
        #expect(!developer.applies(in: .idle) && developer.applies(in: .developerMode))
        let managed = try #require(AssociatedDomain(entitlement: "applinks:corp.example.com?mode=managed"))
        #expect(!managed.applies(in: .developerMode) && managed.applies(in: .managedDevice))
        #expect(AssociatedDomain(entitlement: "applinks:example.com:8443")?.host == "example.com:8443")
    }

    @Test(arguments: [
        "webcredentials:example.com", "applinks:", "applinks:exa mple.com", "applinks:example.com?mode=other",
        "applinks:.example.com", "applinks:example..com", "applinks:*.", "applinks:example.com?mode=standard",
    ])
    func ignored(_ value: String) {
        #expect(AssociatedDomain(entitlement: value) == nil)
    }

    @Test func appKeepsOnlyApplinks() {
        let app = NFCBackgroundApp(
            appID: "T.app", associatedDomains: ["webcredentials:a.com", "applinks:b.com", "activitycontinuation:c.com"])
        #expect(app.domains.map(\.host) == ["b.com"])
    }
}
