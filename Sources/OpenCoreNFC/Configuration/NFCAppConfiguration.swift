import NFCBytes

/// What an app declares about its use of NFC, in its Info.plist and its entitlements.
///
/// Core NFC enforces these declarations when a session begins; OpenCoreNFC's sessions do the same
/// through the rules in `NFCAppConfiguration+Rules.swift`, and `nfc lint` reports problems with
/// them through ``NFCConfigurationLint``.
///
/// The values are stored as declared (strings, in order, duplicates and malformed entries kept),
/// so that a lint can point at them; the typed accessors (``readerSessionFormats``,
/// ``iso7816SelectIdentifiers``, ``felicaSystemCodes``) give the usable values.
///
/// Sources: Apple's Bundle Resources reference for `NFCReaderUsageDescription`,
/// `com.apple.developer.nfc.readersession.formats`,
/// `com.apple.developer.nfc.readersession.iso7816.select-identifiers` and
/// `com.apple.developer.nfc.readersession.felica.systemcodes`.
public struct NFCAppConfiguration: Sendable, Hashable {
    /// The Info.plist and entitlement keys read here.
    public enum Keys {
        /// Info.plist: the text iOS shows when the app starts an NFC session (a string).
        public static let usageDescription = "NFCReaderUsageDescription"
        /// Info.plist: the ISO 7816 application identifiers a tag session may SELECT (hex strings).
        public static let iso7816SelectIdentifiers = "com.apple.developer.nfc.readersession.iso7816.select-identifiers"
        /// Info.plist: the FeliCa system codes a tag session may poll for (4-hex-digit strings).
        public static let felicaSystemCodes = "com.apple.developer.nfc.readersession.felica.systemcodes"
        /// Info.plist: present only in app extensions, where Core NFC is not available.
        public static let appExtension = "NSExtension"
        /// Info.plist of a built bundle: the deployment target (e.g. `"15.0"`).
        public static let minimumOSVersion = "MinimumOSVersion"
        /// Entitlement: the reader-session formats the app may use (`TAG`, legacy `NDEF`, …).
        public static let readerSessionFormats = "com.apple.developer.nfc.readersession.formats"
        /// Entitlement: the app's associated domains (`applinks:example.com`, …).
        public static let associatedDomains = "com.apple.developer.associated-domains"
        /// Entitlement: the app may emulate a card with `CardSession` (iOS 17.4).
        public static let cardEmulation = "com.apple.developer.nfc.hce"
        /// Info.plist: the AID prefixes a reader's SELECT must match to reach the app's `CardSession`.
        public static let cardEmulationSelectIdentifierPrefixes = "com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes"
    }

    /// `NFCReaderUsageDescription`, if declared.
    public var usageDescription: String?
    /// The reader-session format entitlement values as declared; nil when the entitlement is absent.
    public var readerSessionFormatValues: [String]?
    /// The ISO 7816 select identifiers as declared (hex strings, in order); nil when absent.
    public var iso7816SelectIdentifierValues: [String]?
    /// The FeliCa system codes as declared (strings, in order); nil when absent.
    public var felicaSystemCodeValues: [String]?
    /// The associated domains entitlement (`applinks:…`, `webcredentials:…`, …); empty when absent.
    public var associatedDomains: [String]
    /// Whether the Info.plist is an app extension's (it has an `NSExtension` dictionary).
    public var isAppExtension: Bool
    /// `MinimumOSVersion`, present in a built bundle's Info.plist.
    public var minimumOSVersion: String?
    /// Whether the `com.apple.developer.nfc.hce` entitlement is true (card emulation).
    public var cardEmulationEntitled = false
    /// The card-emulation AID prefixes as declared (hex strings, in order); nil when absent.
    public var cardEmulationPrefixValues: [String]?

    /// The card-emulation AID prefixes that are well-formed hex, in declared order.
    public var cardEmulationPrefixes: [[UInt8]] {
        (cardEmulationPrefixValues ?? []).compactMap { try? Hex.decode($0) }.filter { !$0.isEmpty }
    }

    /// Creates a configuration from values handed over directly, as they would appear in the files.
    ///
    /// - Parameters:
    ///   - usageDescription: `NFCReaderUsageDescription`; nil when not declared.
    ///   - readerSessionFormats: the formats entitlement; nil when the entitlement is absent.
    ///   - iso7816SelectIdentifiers: hex AIDs as written in the Info.plist; nil when not declared.
    ///   - felicaSystemCodes: system codes as written in the Info.plist; nil when not declared.
    ///   - associatedDomains: the associated domains entitlement.
    ///   - isAppExtension: whether the bundle is an app extension.
    ///   - minimumOSVersion: the deployment target of a built bundle.
    public init(
        usageDescription: String? = nil,
        readerSessionFormats: Set<Format>? = nil,
        iso7816SelectIdentifiers: [String]? = nil,
        felicaSystemCodes: [String]? = nil,
        associatedDomains: [String] = [],
        isAppExtension: Bool = false,
        minimumOSVersion: String? = nil
    ) {
        self.init(
            usageDescription: usageDescription,
            readerSessionFormatValues: readerSessionFormats.map { $0.map(\.rawValue).sorted() },
            iso7816SelectIdentifierValues: iso7816SelectIdentifiers,
            felicaSystemCodeValues: felicaSystemCodes,
            associatedDomains: associatedDomains,
            isAppExtension: isAppExtension,
            minimumOSVersion: minimumOSVersion)
    }

    /// Creates a configuration from the raw declared values.
    public init(
        usageDescription: String?,
        readerSessionFormatValues: [String]?,
        iso7816SelectIdentifierValues: [String]?,
        felicaSystemCodeValues: [String]?,
        associatedDomains: [String],
        isAppExtension: Bool,
        minimumOSVersion: String?
    ) {
        self.usageDescription = usageDescription
        self.readerSessionFormatValues = readerSessionFormatValues
        self.iso7816SelectIdentifierValues = iso7816SelectIdentifierValues
        self.felicaSystemCodeValues = felicaSystemCodeValues
        self.associatedDomains = associatedDomains
        self.isAppExtension = isAppExtension
        self.minimumOSVersion = minimumOSVersion
    }

    /// The declared reader-session formats; empty when the entitlement is absent.
    public var readerSessionFormats: Set<Format> {
        Set((readerSessionFormatValues ?? []).map(Format.init(rawValue:)))
    }

    /// The well-formed ISO 7816 select identifiers (even-length hex, 5–16 bytes), in declared order.
    ///
    /// Duplicates and payment AIDs are kept; ``selectableAIDs`` is what a session may SELECT.
    public var iso7816SelectIdentifiers: [[UInt8]] {
        (iso7816SelectIdentifierValues ?? []).compactMap { try? ApplicationIdentifier.parse($0) }
    }

    /// The well-formed FeliCa system codes (exactly 4 hex digits), in declared order.
    ///
    /// Wildcard codes (`FF` in either byte) are well-formed and kept here, so that the session rules can refuse them.
    public var felicaSystemCodes: [UInt16] {
        (felicaSystemCodeValues ?? []).compactMap(FeliCaSystemCode.parse)
    }
}
