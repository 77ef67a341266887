import Foundation

/// One pass a VAS session asks the phone for (Core NFC's `NFCVASCommandConfiguration`, iOS 13).
@available(iOS 13.0, *)
open class NFCVASCommandConfiguration: NSObject, NSCopying, @unchecked Sendable {
    /// What the terminal asks for (Core NFC's `NFCVASMode`; GET VAS DATA's P2).
    public enum Mode: Int, Sendable {
        /// Only the URL (P2 `00`): the phone confirms and returns no pass data. Apple's header marks it "Reserved".
        case urlOnly = 0
        /// The pass data (P2 `01`).
        case normal = 1

        /// The iOS 13 spelling of ``urlOnly``.
        @available(*, deprecated, renamed: "urlOnly")
        public static let VASModeURLOnly = Mode.urlOnly
        /// The iOS 13 spelling of ``normal``.
        @available(*, deprecated, renamed: "normal")
        public static let VASModeNormal = Mode.normal
    }

    /// URL-only or normal.
    public var mode: Mode
    /// The pass type identifier; its SHA-256 is the merchant id sent in `9F25`.
    public var passTypeIdentifier: String
    /// The merchant URL sent in `9F29`, at most 64 characters with its scheme; nil sends none.
    public var url: URL?

    /// A configuration for one pass type.
    public init(vasMode mode: Mode, passTypeIdentifier: String, url: URL?) {
        self.mode = mode
        self.passTypeIdentifier = passTypeIdentifier
        self.url = url
        super.init()
    }

    /// A copy with the same mode, identifier and URL.
    open func copy(with zone: NSZone? = nil) -> Any {
        NFCVASCommandConfiguration(vasMode: mode, passTypeIdentifier: passTypeIdentifier, url: url)
    }
}

/// The iOS 13 name of ``NFCVASCommandConfiguration/Mode``.
@available(*, deprecated, renamed: "NFCVASCommandConfiguration.Mode")
public typealias VASMode = NFCVASCommandConfiguration.Mode
