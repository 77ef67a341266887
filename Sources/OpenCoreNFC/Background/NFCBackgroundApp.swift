/// An installed app, as background tag reading sees it: its identifier and the `applinks:`
/// entries of its Associated Domains entitlement.
public struct NFCBackgroundApp: Sendable, Hashable {
    /// `TEAMID.bundle.identifier`, as apple-app-site-association files name apps.
    public var appID: String
    /// The `applinks:` entries (other services and malformed entries are dropped).
    public var domains: [AssociatedDomain]

    /// - Parameters:
    ///   - appID: `TEAMID.bundle.identifier`.
    ///   - associatedDomains: the entitlement's values (`applinks:…`, `webcredentials:…`, …).
    public init(appID: String, associatedDomains: [String]) {
        self.appID = appID
        self.domains = associatedDomains.compactMap(AssociatedDomain.init(entitlement:))
    }

    /// The app an ``NFCAppConfiguration`` (Info.plist + entitlements) describes.
    public init(appID: String, configuration: NFCAppConfiguration) {
        self.init(appID: appID, associatedDomains: configuration.associatedDomains)
    }
}
