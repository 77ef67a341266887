import Foundation

#if canImport(Darwin)
extension NSUserActivity {
    private static let ndefMessageKey = "OpenCoreNFC.ndefMessagePayload"

    /// The NDEF message of the tag that started this activity (Core NFC's
    /// `NSUserActivity.ndefMessagePayload`). An activity that did not come from a tag carries a
    /// message with one empty record, as Apple documents. Kept in `userInfo` as the encoded message.
    public var ndefMessagePayload: NFCNDEFMessage {
        get {
            guard let bytes = userInfo?[Self.ndefMessageKey] as? Data, let message = NFCNDEFMessage(data: bytes) else {
                return NFCNDEFMessage(.emptyRecordMessage)
            }
            return message
        }
        set {
            var info = userInfo ?? [:]
            info[Self.ndefMessageKey] = try? newValue.encoded()
            userInfo = info
        }
    }
}
#else
/// The browsing-web activity type (Foundation's `NSUserActivityTypeBrowsingWeb` on Apple platforms).
public let NSUserActivityTypeBrowsingWeb = "NSUserActivityTypeBrowsingWeb"

/// Foundation's `NSUserActivity`, which swift-corelibs-foundation lacks, reduced to what background
/// tag reading delivers: the activity type, the URL and the tag's NDEF message. Code written for
/// iOS (`userActivity.activityType == NSUserActivityTypeBrowsingWeb`, `.webpageURL`,
/// `.ndefMessagePayload`) compiles unchanged.
open class NSUserActivity: NSObject, @unchecked Sendable {
    /// The kind of activity (``NSUserActivityTypeBrowsingWeb`` for a tag's universal link).
    public let activityType: String
    /// The web page the activity is about: the tag's URL.
    open var webpageURL: URL?
    /// Extra values (as on Apple platforms).
    open var userInfo: [AnyHashable: Any]?
    /// The NDEF message of the tag that started the activity; one empty record when the activity
    /// did not come from a tag, as Apple documents.
    open var ndefMessagePayload: NFCNDEFMessage = NFCNDEFMessage(.emptyRecordMessage)

    /// Makes an activity of this type, with no URL, no user info and the empty-record message.
    public init(activityType: String) {
        self.activityType = activityType
        super.init()
    }
}
#endif
