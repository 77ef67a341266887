/// Why the app's configuration does not allow what a session is about to do.
///
/// The sessions turn a violation into an `NFCReaderError` whose code is ``readerErrorCode`` and
/// whose description is ``message``. Violations compare by ``kind`` only.
public struct NFCConfigurationViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule that was broken, as a stable, comparable value.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The rule's name, e.g. `missingUsageDescription`; kinds are equal when their names are.
        public let name: String
        /// The `NFCReaderError` code a session reports for this rule.
        public let readerErrorCode: ReaderErrorCode
        private init(_ name: String, _ code: ReaderErrorCode) {
            self.name = name
            self.readerErrorCode = code
        }
        /// The rule's ``name``.
        public var description: String { name }
        /// Compares the names only.
        public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.name == rhs.name }
        /// Hashes the name only, consistent with `==`.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        /// The bundle is an app extension; Core NFC is not available in app extensions.
        public static let appExtension = Kind("appExtension", .unsupportedFeature)
        /// `NFCReaderUsageDescription` is missing or empty.
        public static let missingUsageDescription = Kind("missingUsageDescription", .securityViolation)
        /// The formats entitlement allows no session of this kind (`TAG`, or `NDEF` for NDEF sessions).
        public static let missingFormat = Kind("missingFormat", .securityViolation)
        /// Polling FeliCa (ISO 18092) without a usable declared system code.
        public static let missingSystemCodes = Kind("missingSystemCodes", .securityViolation)
        /// A FeliCa system code holds the wildcard `FF` in either byte (`FFFF`, `88FF`).
        public static let wildcardSystemCode = Kind("wildcardSystemCode", .securityViolation)
        /// An ISO 7816 operation with no selectable AID, or a SELECT of an undeclared AID.
        public static let missingSelectIdentifier = Kind("missingSelectIdentifier", .securityViolation)
        /// A tag session asked to poll for no technology at all.
        public static let emptyPolling = Kind("emptyPolling", .invalidParameter)
    }

    /// The `NFCReaderError.Code` values a configuration violation maps to, with Apple's raw values.
    public enum ReaderErrorCode: Int, Hashable, Sendable, CaseIterable {
        /// `NFCReaderError.Code.readerErrorUnsupportedFeature`.
        case unsupportedFeature = 1
        /// `NFCReaderError.Code.readerErrorSecurityViolation`: missing entitlement or privacy setting.
        case securityViolation = 2
        /// `NFCReaderError.Code.readerErrorInvalidParameter`.
        case invalidParameter = 3
    }

    /// The rule that was broken.
    public let kind: Kind
    /// What is wrong and what to declare, for the developer.
    public let message: String

    /// Makes a violation of `kind`; `message` says what is wrong and what to declare.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The `NFCReaderError` code a session reports (``Kind/readerErrorCode``).
    public var readerErrorCode: ReaderErrorCode { kind.readerErrorCode }

    /// Compares the kinds only; the messages are ignored.
    public static func == (lhs: NFCConfigurationViolation, rhs: NFCConfigurationViolation) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the kind only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// `kind: message`, e.g. `missingUsageDescription: …`.
    public var description: String { "\(kind): \(message)" }
}
