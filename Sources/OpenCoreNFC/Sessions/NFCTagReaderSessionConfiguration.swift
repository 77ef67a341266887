import Foundation

/// The Objective-C spelling of a tag session's configuration (Core NFC, iOS 26.4:
/// `NFCTagReaderSessionConfiguration`, with `initWithPollingOption:iso7816SelectIdentifiers:felicaSystemCodes:`
/// and `-[NFCTagReaderSession restartPollingWithConfiguration:]`). Swift code usually uses the
/// overlay's value type ``NFCTagReaderSession/Configuration``; both say the same, and a session
/// made from either behaves the same.
@available(iOS 26.4, *)
open class NFCTagReaderSessionConfiguration: NSObject, NSCopying {
    /// The technologies to poll for.
    public var polling: NFCTagReaderSession.PollingOption
    /// AIDs as hex strings, SELECTed in this order when an ISO 7816 card is found; empty: all the app declares.
    public var iso7816SelectIdentifiers: [String]
    /// FeliCa system codes as 4 hex digits, polled in this order; empty: all the app declares.
    public var felicaSystemCodes: [String]

    /// Makes a configuration. Sessions copy it: changing it afterwards changes no session.
    public init(pollingOption: NFCTagReaderSession.PollingOption, iso7816SelectIdentifiers: [String], felicaSystemCodes: [String]) {
        self.polling = pollingOption
        self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
        self.felicaSystemCodes = felicaSystemCodes
        super.init()
    }

    /// A configuration with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        NFCTagReaderSessionConfiguration(
            pollingOption: polling, iso7816SelectIdentifiers: iso7816SelectIdentifiers, felicaSystemCodes: felicaSystemCodes)
    }

    /// The same configuration as the overlay's value type.
    var value: NFCTagReaderSession.Configuration {
        NFCTagReaderSession.Configuration(
            pollingOption: polling, iso7816SelectIdentifiers: iso7816SelectIdentifiers, feliCaSystemCodes: felicaSystemCodes)
    }
}

@available(iOS 26.4, *)
extension NFCTagReaderSession {
    /// Creates a session from the Objective-C configuration (`initWithConfiguration:delegate:queue:`).
    public convenience init(
        configuration: NFCTagReaderSessionConfiguration, delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue?
    ) {
        self.init(configuration: configuration.value, delegate: delegate, queue: queue)
    }

    /// Polls again with the Objective-C configuration (`restartPollingWithConfiguration:`); tags
    /// detected before become unavailable.
    public func restartPolling(with configuration: NFCTagReaderSessionConfiguration) {
        restartPolling(configuration: configuration.value)
    }
}
