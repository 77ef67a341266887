import Foundation

/// The card an ``NFCAuthenticator`` connected to.
public struct NFCAuthenticatorTag: Sendable, Hashable {
    /// The UID (Type A) or PUPI (Type B).
    public let identifier: Data
    /// The AID from the app's list that answered the session's SELECT, as upper-case hex.
    public let initialSelectedAID: String
    /// The ATS historical bytes (Type A).
    public let historicalBytes: Data?
    /// The ATQB application data (Type B).
    public let applicationData: Data?

    /// Makes a tag description from its fields, for instance to stand in for a card in tests.
    public init(identifier: Data, initialSelectedAID: String, historicalBytes: Data? = nil, applicationData: Data? = nil) {
        self.identifier = identifier
        self.initialSelectedAID = initialSelectedAID
        self.historicalBytes = historicalBytes
        self.applicationData = applicationData
    }

    init(_ tag: any NFCISO7816Tag) {
        self.init(
            identifier: tag.identifier, initialSelectedAID: tag.initialSelectedAID,
            historicalBytes: tag.historicalBytes, applicationData: tag.applicationData)
    }
}

/// What an ``NFCAuthenticator`` tells its delegate, on the authenticator's callback queue.
public protocol NFCAuthenticatorDelegate: AnyObject, Sendable {
    /// A card was connected; queued commands now go to it.
    func authenticator(_ authenticator: NFCAuthenticator, didConnect tag: NFCAuthenticatorTag)
    /// The connected card was lost (``NFCAuthenticatorError/tagConnectionLost(_:)``) or released
    /// by ``NFCAuthenticator/restart()``; polling goes on. Optional.
    func authenticator(_ authenticator: NFCAuthenticator, didDisconnect error: NFCAuthenticatorError)
    /// Polling started again without the app asking: the tags found held no ISO 7816 card, or
    /// connecting failed, or the card was lost. Optional.
    func authenticator(_ authenticator: NFCAuthenticator, didRestartPolling reason: NFCAuthenticatorPollingRestart)
    /// The reader session ended; the authenticator can be started again.
    func authenticator(_ authenticator: NFCAuthenticator, didEndWith reason: NFCAuthenticatorEndReason)
}

extension NFCAuthenticatorDelegate {
    /// Does nothing by default.
    public func authenticator(_ authenticator: NFCAuthenticator, didDisconnect error: NFCAuthenticatorError) {}
    /// Does nothing by default.
    public func authenticator(_ authenticator: NFCAuthenticator, didRestartPolling reason: NFCAuthenticatorPollingRestart) {}
}

/// Why an ``NFCAuthenticator`` polled again by itself.
public enum NFCAuthenticatorPollingRestart: Sendable, Hashable {
    /// The tags found were of these kinds, none ISO 7816 (polling restarts once per new tag).
    case noISO7816Tag([NFCTagType])
    /// `connect(to:)` failed, with this reason.
    case connectionFailed(String)
    /// The connected card was lost.
    case tagLost
}
