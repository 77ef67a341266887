import Foundation
import NDEF
import Testing

@testable import OpenCoreNFC

/// Background tag reading's routing rules, device conditions and delivery.
@Suite("Background tag reading: dispatch")
struct BackgroundTagReaderTests {
    static let shopID = "ABCDE12345.com.example.shop"
    static let newsID = "FGHIJ67890.com.example.news"

    static let reader: NFCBackgroundTagReader = {
        let shop = try! AppSiteAssociation(
            json: Data(
                """
                {"applinks": {"details": [{"appIDs": ["\(shopID)"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/*"}]}]}}
                """.utf8))
        let news = try! AppSiteAssociation(
            json: Data(
                """
                {"applinks": {"details": [{"appID": "\(newsID)", "paths": ["/articles/*"]}]}}
                """.utf8))
        return NFCBackgroundTagReader(
            apps: [
                NFCBackgroundApp(appID: shopID, associatedDomains: ["applinks:shop.example.com", "webcredentials:shop.example.com"]),
                NFCBackgroundApp(
                    appID: newsID, associatedDomains: ["applinks:*.news.example", "applinks:beta.example.com?mode=developer"]),
            ],
            associations: ["shop.example.com": shop, "news.example": news, "beta.example.com": news]
        )
    }()

    func message(_ records: NDEFRecord...) -> NDEFMessage { NDEFMessage(records: records) }
    func uri(_ text: String) -> NDEFRecord { try! URIRecord(uri: text).record() }
    func text(_ text: String) -> NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], payload: [0x02] + Array("en".utf8) + Array(text.utf8))
    }

    func dispatch(_ url: String, state: NFCBackgroundDeviceState = .idle) -> NFCBackgroundDispatch {
        Self.reader.dispatch(message(uri(url)), state: state)
    }

    @Test func universalLinkGoesToItsApp() {
        let result = dispatch("https://shop.example.com/item/42?color=red")
        #expect(result.outcome == .delivered(.app(Self.shopID)))
        #expect(result.recordIndex == 0)
        #expect(result.url?.absoluteString == "https://shop.example.com/item/42?color=red")
    }

    @Test func excludedPathOpensInSafari() {
        #expect(dispatch("https://shop.example.com/private/orders").outcome == .delivered(.system(.safari)))
    }

    @Test func httpIsNeverAUniversalLink() {
        #expect(dispatch("http://shop.example.com/item/42").outcome == .delivered(.system(.safari)))
    }

    @Test func domainWithoutAnInstalledAppOpensInSafari() {
        #expect(dispatch("https://www.apple.com/iphone/").outcome == .delivered(.system(.safari)))
    }

    @Test func wildcardDomainAndLegacyPaths() {
        #expect(dispatch("https://eu.news.example/articles/1").outcome == .delivered(.app(Self.newsID)))
        #expect(dispatch("https://eu.news.example/about").outcome == .delivered(.system(.safari)))
        #expect(dispatch("https://news.example/articles/1").outcome == .delivered(.system(.safari)), "*. does not cover the domain itself")
    }

    @Test func developerModeDomainsNeedDeveloperMode() {
        #expect(dispatch("https://beta.example.com/articles/1").outcome == .delivered(.system(.safari)))
        #expect(dispatch("https://beta.example.com/articles/1", state: .developerMode).outcome == .delivered(.app(Self.newsID)))
    }

    @Test(arguments: [
        ("mailto:someone@example.com?subject=Hi", NFCSystemApp.mail),
        ("sms:+15551234567", .messages),
        ("tel:+1-555-123-4567", .phone),
        ("facetime:someone@example.com", .facetime),
        ("facetime-audio:+15551234567", .facetime),
        ("https://maps.apple.com/?ll=50.894967,4.341626", .maps),
        ("http://maps.apple.com/?q=coffee", .maps),
        ("X-HM://0023ISYWY1Z5T", .home),
        ("HTTPS://www.example.org/", .safari),
    ])
    func systemSchemes(url: String, app: NFCSystemApp) {
        #expect(dispatch(url).outcome == .delivered(.system(app)), "\(url)")
    }

    @Test(arguments: [
        "myapp://open/item/1", "ftp://files.example.com/a", "urn:isbn:0451450523", "geo:37.786971,-122.399677", "maps:?q=coffee",
    ])
    func customAndOtherSchemesAreRefused(url: String) {
        let result = dispatch(url)
        guard case .notDelivered(.unsupportedScheme(let scheme)) = result.outcome else {
            Issue.record("\(url): \(result.outcome)")
            return
        }
        #expect(url.lowercased().hasPrefix(scheme.lowercased() + ":"))
        #expect(result.recordIndex == 0)
    }

    @Test func firstURIRecordIsUsedAndOthersIgnored() {
        let result = Self.reader.dispatch(
            message(text("hello"), uri("tel:+15550001"), uri("https://shop.example.com/item/1")), state: .idle)
        #expect(result.recordIndex == 1)
        #expect(result.outcome == .delivered(.system(.phone)))
    }

    @Test func smartPosterIsNotAURIRecord() throws {
        let poster = NDEFRecord(
            typeNameFormat: .wellKnown, type: Array("Sp".utf8), payload: try NDEFMessage(uri("https://shop.example.com/")).encoded())
        #expect(Self.reader.dispatch(message(poster), state: .idle).outcome == .notDelivered(.noURIRecord))
    }

    @Test func messagesWithoutURI() {
        #expect(Self.reader.dispatch(message(text("only text")), state: .idle).outcome == .notDelivered(.noURIRecord))
        #expect(Self.reader.dispatch(nil as NDEFMessage?, state: .idle).outcome == .notDelivered(.noMessage))
        #expect(Self.reader.dispatch(NDEFMessage.emptyRecordMessage, state: .idle).outcome == .notDelivered(.noMessage))
        let external = NDEFRecord(typeNameFormat: .absoluteURI, type: Array("https://shop.example.com/".utf8), payload: [])
        #expect(
            Self.reader.dispatch(message(external), state: .idle).outcome == .notDelivered(.noURIRecord),
            "an absolute-URI TNF is not a URI record")
    }

    @Test func malformedURIRecord() {
        let empty = NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [])
        let result = Self.reader.dispatch(message(text("x"), empty), state: .idle)
        guard case .notDelivered(.malformedURIRecord(let index, _)) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        #expect(index == 1)
    }

    @Test func reservedPrefixCodeReadsAsNoPrefix() {
        let record = NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [0x40] + Array("tel:+1555".utf8))
        #expect(Self.reader.dispatch(message(record), state: .idle).outcome == .delivered(.system(.phone)))
    }

    @Test func unparsableURL() {
        guard case .notDelivered(.invalidURL) = dispatch("https://exa mple.com/").outcome else {
            Issue.record("a space in the host is not a URL")
            return
        }
    }

    @Test func internationalizedURIIsPercentEncoded() {
        let result = dispatch("https://shop.example.com/café")
        #expect(result.outcome == .delivered(.app(Self.shopID)))
        #expect(result.url?.absoluteString == "https://shop.example.com/caf%C3%A9")
    }

    static let conditions: [(NFCBackgroundDeviceState, NFCBackgroundUnavailability)] = [
        (.readerSessionInProgress, .readerSessionInProgress),
        (.walletInUse, .walletInUse), (.cameraInUse, .cameraInUse), (.airplaneMode, .airplaneMode),
        (.beforeFirstUnlock, .beforeFirstUnlock), ([.locked, .beforeFirstUnlock], .beforeFirstUnlock),
        ([.cameraInUse, .airplaneMode], .airplaneMode),
    ]

    @Test(arguments: conditions)
    func unavailable(state: NFCBackgroundDeviceState, reason: NFCBackgroundUnavailability) {
        let result = dispatch("https://shop.example.com/item/1", state: state)
        #expect(result.outcome == .notDelivered(.unavailable(reason)))
        #expect(!result.isDelivered && result.userActivity == nil)
    }

    @Test func lockedDeviceAsksToUnlockFirst() {
        #expect(dispatch("https://shop.example.com/item/1", state: .locked).outcome == .awaitingUnlock(.app(Self.shopID)))
        #expect(dispatch("tel:+1555", state: .locked).outcome == .awaitingUnlock(.system(.phone)))
        #expect(dispatch("myapp://x", state: .locked).outcome == .notDelivered(.unsupportedScheme("myapp")))
    }

    @Test func activityCarriesURLAndWholeMessage() throws {
        let sent = message(uri("https://shop.example.com/item/7"), text("extra"))
        let result = Self.reader.dispatch(sent, state: .idle)
        let activity = try #require(result.userActivity)
        #expect(activity.activityType == NSUserActivityTypeBrowsingWeb)
        #expect(activity.webpageURL?.absoluteString == "https://shop.example.com/item/7")
        #expect(activity.ndefMessagePayload.ndefMessage == sent)
        #expect(activity.ndefMessagePayload.records.count == 2)
    }

    @Test func systemTargetsGetNoActivity() {
        #expect(dispatch("https://www.apple.com/").userActivity == nil)
    }

    @Test func activityNotFromATagHasOneEmptyRecord() {
        let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
        #expect(activity.ndefMessagePayload.records.count == 1)
        #expect(activity.ndefMessagePayload.records[0].typeNameFormat == .empty)
    }

    @Test func coreNFCMessageDispatches() throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "sms:+15550002"))
        #expect(Self.reader.dispatch(NFCNDEFMessage(records: [payload]), state: .idle).outcome == .delivered(.system(.messages)))
    }

    @Test func appFromConfiguration() {
        let configuration = NFCAppConfiguration(
            usageDescription: "x", readerSessionFormats: [.tag], associatedDomains: ["applinks:shop.example.com"])
        #expect(NFCBackgroundApp(appID: "T.x", configuration: configuration).domains.map(\.host) == ["shop.example.com"])
    }
}
