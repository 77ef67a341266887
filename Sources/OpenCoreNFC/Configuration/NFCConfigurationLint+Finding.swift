extension NFCConfigurationLint {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Worth knowing, and a problem only if the app does something it may not do (polls
        /// FeliCa, reads ISO 7816 tags): ``NFCConfigurationLint/exitStatus(_:)`` ignores it.
        /// Given the app's sources (``NFCAppSourceEvidence``), such a finding is a warning or
        /// an error when the sources show it matters, and is dropped when they show it does not.
        case note
        /// Worth fixing; the app may still work (or works only for some tags).
        case warning
        /// Sessions fail, or App Store Connect refuses the build.
        case error

        /// `note`, `warning` or `error`.
        public var description: String { rawValue }

        /// ``note`` is below ``warning``, below ``error``, so the `max()` of several severities is the worst.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// A finding's identity: a stable string that scripts and tests match on.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The dotted name scripts match on, e.g. `usage-description.missing`.
        public let rawValue: String
        /// Makes a code from its name; unknown names are kept as written.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The ``rawValue``.
        public var description: String { rawValue }

        /// A file is not a readable property list, or not a dictionary.
        public static let unreadable = Code(rawValue: "plist.unreadable")
        /// A known key holds a value of the wrong type.
        public static let wrongType = Code(rawValue: "value.wrong-type")
        /// No entitlements file was given, so the entitlement checks did not run (a note).
        public static let entitlementsNotChecked = Code(rawValue: "entitlements.not-checked")
        /// The bundle is an app extension; Core NFC is not available there.
        public static let appExtension = Code(rawValue: "bundle.app-extension")
        /// `NFCReaderUsageDescription` is missing.
        public static let usageDescriptionMissing = Code(rawValue: "usage-description.missing")
        /// `NFCReaderUsageDescription` is empty or only white space.
        public static let usageDescriptionEmpty = Code(rawValue: "usage-description.empty")
        /// The formats entitlement is missing.
        public static let formatsMissing = Code(rawValue: "formats.missing")
        /// The formats entitlement is an empty array.
        public static let formatsEmpty = Code(rawValue: "formats.empty")
        /// The formats entitlement holds `NDEF` without `TAG`.
        public static let formatsNDEFOnly = Code(rawValue: "formats.ndef-only")
        /// The formats entitlement holds `NDEF` beside `TAG`.
        public static let formatsNDEFDisallowed = Code(rawValue: "formats.ndef-disallowed")
        /// The formats entitlement holds a value other than `TAG`, `NDEF` and `PACE`.
        public static let formatsUnknownValue = Code(rawValue: "formats.unknown-value")
        /// The formats entitlement holds neither `TAG` nor `NDEF`: no session can begin.
        public static let formatsUnusable = Code(rawValue: "formats.unusable")
        /// A select identifier is not even-length hex of 5–16 bytes.
        public static let aidMalformed = Code(rawValue: "iso7816.malformed")
        /// A select identifier is declared more than once.
        public static let aidDuplicate = Code(rawValue: "iso7816.duplicate")
        /// A select identifier is a payment AID, which Core NFC refuses.
        public static let aidPayment = Code(rawValue: "iso7816.payment")
        /// `TAG` is declared but no select identifier: ISO 7816 tags cannot be used (a note unless
        /// the sources handle ISO 7816 tags).
        public static let aidsMissing = Code(rawValue: "iso7816.missing")
        /// A FeliCa system code is not 4 hex digits.
        public static let systemCodeMalformed = Code(rawValue: "felica.malformed")
        /// A FeliCa system code holds the wildcard `FF` in either byte (`FFFF`, `88FF`).
        public static let systemCodeWildcard = Code(rawValue: "felica.wildcard")
        /// `TAG` is declared but no system code: sessions polling FeliCa fail (a note unless the
        /// sources poll `iso18092`, an error when they do).
        public static let systemCodesMissing = Code(rawValue: "felica.missing")
        /// Associated domains are declared, but none is `applinks:`.
        public static let noAppLinks = Code(rawValue: "associated-domains.no-applinks")
        /// An `applinks:` entry is malformed (a bad host or mode): iOS ignores it.
        public static let appLinkMalformed = Code(rawValue: "associated-domains.malformed")
        /// The sources SELECT an AID the Info.plist does not list: Core NFC refuses that SELECT.
        public static let aidUndeclared = Code(rawValue: "iso7816.undeclared")
        /// A listed AID appears nowhere in the sources.
        public static let aidUnused = Code(rawValue: "iso7816.unused")
        /// System codes are listed, but the sources never poll `iso18092`.
        public static let systemCodesUnused = Code(rawValue: "felica.unused")
    }

    /// One problem with an app's NFC configuration, and how to fix it.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// How serious it is.
        public let severity: Severity
        /// Which check found it.
        public let code: Code
        /// The Info.plist or entitlement key concerned; nil for a whole file.
        public let key: String?
        /// What is wrong.
        public let message: String
        /// What to change.
        public let fix: String

        /// Makes a finding: `key` is nil when the whole file is concerned, `message` says what is wrong and `fix` what to change.
        public init(_ severity: Severity, _ code: Code, key: String?, _ message: String, fix: String) {
            self.severity = severity
            self.code = code
            self.key = key
            self.message = message
            self.fix = fix
        }

        /// One line: `error [code] key: message (fix: …)`.
        public var description: String {
            let location = key.map { " \($0):" } ?? ""
            return "\(severity) [\(code)]\(location) \(message) (fix: \(fix))"
        }
    }
}
