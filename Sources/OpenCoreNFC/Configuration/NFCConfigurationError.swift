/// Why an app's Info.plist or entitlements could not be turned into an ``NFCAppConfiguration``.
///
/// Following the swift-asn1 model used across this package: a small struct around an extensible
/// ``Code``; two errors are equal when their codes are, so tests assert on `error.code`. Each error
/// names the ``document`` and, for a value of the wrong type, the ``key`` (and array index).
public struct NFCConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `wrongType`; codes are equal when their names are.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's ``name``.
        public var description: String { name }

        /// The file could not be read from disk.
        public static let unreadableFile = Code("unreadableFile")
        /// The bytes are neither an XML nor a binary property list (or are corrupt).
        public static let unreadablePropertyList = Code("unreadablePropertyList")
        /// The property list's top level is not a dictionary.
        public static let notADictionary = Code("notADictionary")
        /// A known key holds a value of the wrong type (a number where a string belongs, …).
        public static let wrongType = Code("wrongType")
    }

    /// Which file (or folder) an error concerns.
    public enum Document: String, Hashable, Sendable, CustomStringConvertible {
        /// The app's information property list (`Info.plist`).
        case infoPlist = "Info.plist"
        /// The app's code-signing entitlements (`.entitlements`).
        case entitlements = "entitlements"
        /// The folder of the app's Swift sources (``NFCAppSourceEvidence``).
        case sources = "sources"

        /// The file name as messages show it: `Info.plist` or `entitlements`.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The file concerned.
    public let document: Document
    /// The key whose value is wrong, for ``Code/wrongType``.
    public let key: String?
    /// A human-readable reason.
    public let reason: String

    /// Makes an error with `code` about `document`; `key` names the offending key for ``Code/wrongType``, `reason` says what is wrong.
    public init(_ code: Code, in document: Document, key: String? = nil, _ reason: String) {
        self.code = code
        self.document = document
        self.key = key
        self.reason = reason
    }

    /// Compares the codes only: document, key and reason are ignored.
    public static func == (lhs: NFCConfigurationError, rhs: NFCConfigurationError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code in document[, key K]: reason`, e.g. `wrongType in Info.plist, key NFCReaderUsageDescription: …`.
    public var description: String {
        if let key { return "\(code) in \(document), key \(key): \(reason)" }
        return "\(code) in \(document): \(reason)"
    }
}
