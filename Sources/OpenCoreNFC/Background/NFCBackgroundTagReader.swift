import Foundation
import NDEF

/// Background tag reading as iPhones do it: what happens when a tag is tapped while no app is
/// scanning (Apple, "Adding support for background tag reading").
///
/// 1. Nothing, when the device is not reading in the background (``NFCBackgroundDeviceState``).
/// 2. The first URI record (well-known type `U`) is taken; other records are ignored for routing
///    and a message without one is not delivered.
/// 3. An `https` URL whose host an installed app lists under `applinks:` and whose path, query
///    and fragment that domain's apple-app-site-association file gives to the app is a
///    universal link: the app receives a browsing-web ``NSUserActivity`` carrying the URL and
///    the whole message. Apps are tried in ``apps`` order.
/// 4. Other supported schemes go to system apps (``NFCSystemApp``): `http`/`https` to Safari
///    (a universal link without its app included), Maps links to Maps, `mailto`, `sms`, `tel`,
///    `facetime`, `facetime-audio`, `X-HM`. Custom schemes are not supported.
/// 5. On a locked device the user is asked to unlock first.
public struct NFCBackgroundTagReader: Sendable {
    /// The installed apps, in the order they are tried.
    public var apps: [NFCBackgroundApp]
    /// Each domain's apple-app-site-association file, by host (lower case).
    public var associations: [String: AppSiteAssociation]

    /// Makes a reader for these apps and association files. Hosts are lower-cased; when two differ only in case, one of their files is
    /// kept (which one is unspecified).
    public init(apps: [NFCBackgroundApp] = [], associations: [String: AppSiteAssociation] = [:]) {
        self.apps = apps
        self.associations = Dictionary(associations.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Dispatches a Core NFC message.
    public func dispatch(_ message: NFCNDEFMessage?, state: NFCBackgroundDeviceState = .current()) -> NFCBackgroundDispatch {
        dispatch(message?.ndefMessage, state: state)
    }

    /// Dispatches the message read from a tag (`nil`: the tag held none).
    public func dispatch(_ message: NDEFMessage?, state: NFCBackgroundDeviceState = .current()) -> NFCBackgroundDispatch {
        func refuse(_ refusal: NFCBackgroundRefusal, index: Int? = nil, url: URL? = nil) -> NFCBackgroundDispatch {
            NFCBackgroundDispatch(message: message, recordIndex: index, url: url, outcome: .notDelivered(refusal))
        }
        if let why = state.unavailability { return refuse(.unavailable(why)) }
        guard let message, !message.records.isEmpty, message != .emptyRecordMessage else { return refuse(.noMessage) }
        guard let index = message.records.firstIndex(where: { $0.hasType(.wellKnown, URIRecord.recordType) }) else {
            return refuse(.noURIRecord)
        }
        let record: URIRecord
        do {
            // NFC Forum URI RTD §3.2.2: a reserved identifier code reads as no prefix.
            record = try URIRecord(message.records[index], options: .lenient)
        } catch {
            return refuse(.malformedURIRecord(index: index, reason: error.description), index: index)
        }
        let text = record.asciiURI
        guard let components = URLComponents(string: text), let scheme = components.scheme, let url = components.url else {
            return refuse(.invalidURL(record.uri), index: index)
        }
        let target: NFCBackgroundTarget
        if let appID = universalLinkApp(for: components, state: state) {
            target = .app(appID)
        } else if let system = NFCSystemApp.handling(scheme: scheme, host: components.host) {
            target = .system(system)
        } else {
            return refuse(.unsupportedScheme(scheme), index: index, url: url)
        }
        let outcome: NFCBackgroundDispatch.Outcome = state.contains(.locked) ? .awaitingUnlock(target) : .delivered(target)
        return NFCBackgroundDispatch(message: message, recordIndex: index, url: url, outcome: outcome)
    }

    /// The first app that takes `url` as a universal link: `https`, a host under one of the
    /// app's `applinks:` entries in force, and the domain's file allowing the URL for the app.
    func universalLinkApp(for url: URLComponents, state: NFCBackgroundDeviceState) -> String? {
        guard url.scheme?.lowercased() == "https", let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let hostWithPort = url.port.map { "\(host):\($0)" } ?? host
        for app in apps {
            for domain in app.domains where domain.applies(in: state) && domain.covers(host: hostWithPort) {
                // The file comes from the URL's own host; for a wildcard entry the domain's file
                // is used when the subdomain has none.
                let file = associations[hostWithPort] ?? (domain.isWildcard ? associations[domain.host] : nil)
                if let file, file.allows(url, for: app.appID) { return app.appID }
            }
        }
        return nil
    }
}
