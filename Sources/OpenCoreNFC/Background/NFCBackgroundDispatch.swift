import Foundation
import NDEF

/// What background tag reading did with one tag's NDEF message.
public struct NFCBackgroundDispatch: Sendable, Hashable {
    /// The result.
    public enum Outcome: Sendable, Hashable {
        /// Handed to the target at once.
        case delivered(NFCBackgroundTarget)
        /// The device is locked: the user is asked to unlock, then the target gets it.
        case awaitingUnlock(NFCBackgroundTarget)
        /// Not delivered, and why.
        case notDelivered(NFCBackgroundRefusal)
    }

    /// The message read from the tag (`nil`: the tag held none).
    public let message: NDEFMessage?
    /// The index of the URI record used, when one was found.
    public let recordIndex: Int?
    /// The URL, when the record held a usable one.
    public let url: URL?
    /// Whether the message was delivered, and to which target, or why not.
    public let outcome: Outcome

    /// Whether the URL reaches a target (now or after unlocking).
    public var isDelivered: Bool {
        if case .notDelivered = outcome { return false }
        return true
    }

    /// The target, when there is one.
    public var target: NFCBackgroundTarget? {
        switch outcome {
        case .delivered(let target), .awaitingUnlock(let target): target
        case .notDelivered: nil
        }
    }

    /// The refusal, when not delivered.
    public var refusal: NFCBackgroundRefusal? {
        if case .notDelivered(let refusal) = outcome { return refusal }
        return nil
    }

    /// The user activity an app receives (`application(_:continue:restorationHandler:)` /
    /// `onContinueUserActivity(NSUserActivityTypeBrowsingWeb)`): browsing-web, the URL as
    /// `webpageURL` and the whole message as `ndefMessagePayload`. `nil` unless an app is the target.
    public var userActivity: NSUserActivity? {
        guard case .app = target, let url else { return nil }
        let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
        activity.webpageURL = url
        activity.ndefMessagePayload = NFCNDEFMessage(message ?? .emptyRecordMessage)
        return activity
    }
}

/// Why a tag read in the background was not delivered.
public enum NFCBackgroundRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The device was not reading tags in the background.
    case unavailable(NFCBackgroundUnavailability)
    /// The tag held no NDEF message (or an empty one).
    case noMessage
    /// The message has no URI record (well-known type `U`).
    case noURIRecord
    /// The first URI record could not be decoded.
    case malformedURIRecord(index: Int, reason: String)
    /// The URI is not a URL the system can parse.
    case invalidURL(String)
    /// The scheme is not one background reading supports (custom schemes are not).
    case unsupportedScheme(String)

    /// A stable name for scripts (`nfc dispatch --json`'s `reason`).
    public var code: String {
        switch self {
        case .unavailable(let why): "unavailable:\(why.rawValue)"
        case .noMessage: "no-message"
        case .noURIRecord: "no-uri-record"
        case .malformedURIRecord: "malformed-uri-record"
        case .invalidURL: "invalid-url"
        case .unsupportedScheme: "unsupported-scheme"
        }
    }

    /// An English phrase saying why the message was not delivered, with the record index, URL or scheme concerned.
    public var description: String {
        switch self {
        case .unavailable(let why): "background tag reading is off (\(why.rawValue))"
        case .noMessage: "the tag holds no NDEF message"
        case .noURIRecord: "the message has no URI record"
        case .malformedURIRecord(let index, let reason): "URI record \(index) is malformed: \(reason)"
        case .invalidURL(let text): "\"\(text)\" is not a URL"
        case .unsupportedScheme(let scheme):
            "the scheme \"\(scheme):\" is not supported by background tag reading (custom schemes never are)"
        }
    }
}
