extension NFCAppConfiguration {
    /// A value of the `com.apple.developer.nfc.readersession.formats` entitlement.
    ///
    /// Xcode's "Near Field Communication Tag Reading" capability writes `TAG`, which allows both
    /// NDEF and tag reader sessions from iOS 13 on. `NDEF` is the iOS 11/12 value; App Store
    /// Connect refuses it in builds for iOS 13 and later ("NDEF is disallowed", ITMS-90778 — see
    /// ``NFCConfigurationLint``). Other values (such as `PACE`) are kept as ``other(_:)``.
    public enum Format: Sendable, Hashable, CustomStringConvertible {
        /// `NDEF`: NDEF reader sessions only (the legacy value).
        case ndef
        /// `TAG`: tag reader sessions, and NDEF reader sessions too.
        case tag
        /// Any other value, as written (values are case-sensitive: `tag` is not `TAG`).
        case other(String)

        /// The format an entitlement string names; unknown strings become ``other(_:)``.
        public init(rawValue: String) {
            switch rawValue {
            case "NDEF": self = .ndef
            case "TAG": self = .tag
            default: self = .other(rawValue)
            }
        }

        /// The entitlement string.
        public var rawValue: String {
            switch self {
            case .ndef: return "NDEF"
            case .tag: return "TAG"
            case .other(let value): return value
            }
        }

        /// The entitlement string, as ``rawValue``.
        public var description: String { rawValue }

        /// Formats compare by their entitlement string, so `.other("TAG")` equals `.tag`.
        public static func == (lhs: Format, rhs: Format) -> Bool { lhs.rawValue == rhs.rawValue }
        /// Hashes the entitlement string, consistent with `==`.
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }
}
