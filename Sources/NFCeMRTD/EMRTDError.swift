import ISO7816

/// Everything that stops reading a passport or ID card, with a stable ``Code`` to branch on and,
/// where it helps, the file and the status word involved.
public struct EMRTDError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The name, as `description` prints it.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The MRZ text or its fields are not valid (length, characters, a check digit).
        public static let invalidMRZ = Code("invalidMRZ")
        /// The chip has no eMRTD application (SELECT of `A0000002471001` refused).
        public static let notAPassport = Code("notAPassport")
        /// Basic Access Control was refused: the MRZ does not belong to this document.
        public static let accessDenied = Code("accessDenied")
        /// An answer's cryptogram or MAC did not verify: wrong keys or a tampered exchange.
        public static let authenticationFailed = Code("authenticationFailed")
        /// Chip or active authentication failed: the chip does not hold the private key DG14 or
        /// DG15 names — not the chip the document was issued with (a clone, or a substituted chip).
        public static let chipNotGenuine = Code("chipNotGenuine")
        /// A secure-messaging answer was malformed, or its MAC did not verify.
        public static let secureMessaging = Code("secureMessaging")
        /// The chip refused to read a file without further access rights (`6982`).
        public static let securityStatusNotSatisfied = Code("securityStatusNotSatisfied")
        /// The file does not exist on this document (`6A82`).
        public static let fileNotFound = Code("fileNotFound")
        /// A file's bytes are not what ICAO Doc 9303 Part 10 defines for it.
        public static let malformedFile = Code("malformedFile")
        /// The chip answered a status word the step does not allow.
        public static let unexpectedStatus = Code("unexpectedStatus")
        /// An algorithm the document uses that this build does not implement.
        public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// Passive authentication: a data group's hash differs from the one EF.SOD signs.
        public static let tamperedDataGroup = Code("tamperedDataGroup")
        /// Passive authentication: EF.SOD's signature does not verify with its Document Signer.
        public static let invalidSignature = Code("invalidSignature")
        /// Passive authentication: the Document Signer does not chain to a trusted CSCA.
        public static let untrustedSigner = Code("untrustedSigner")
        /// The transport failed (the card left, the reader went away).
        public static let transport = Code("transport")
    }

    /// What went wrong.
    public let code: Code
    /// The file concerned (`DG1`, `EF.SOD`), when there is one.
    public let file: String?
    /// The status word the chip answered, when it matters.
    public let statusWord: StatusWord?
    /// For people: what and where.
    public let reason: String

    /// An error with `code`, the file and status word concerned, and a reason.
    public init(_ code: Code, file: String? = nil, statusWord: StatusWord? = nil, _ reason: String) {
        self.code = code
        self.file = file
        self.statusWord = statusWord
        self.reason = reason
    }

    public var description: String {
        var text = "\(code)"
        if let file { text += " (\(file))" }
        text += ": \(reason)"
        if let statusWord { text += " [SW \(statusWord)]" }
        return text
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.file == rhs.file }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(file)
    }
}
