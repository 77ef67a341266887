/// Why a MIFARE Plus operation failed, with what and where.
///
/// A struct around an extensible ``Code``, as the project's other errors: equal when the codes
/// are. A card's own refusal carries its status byte in ``status`` (NXP Reader Library's
/// `PHAL_MFP_RESP_*`; docs/mifare-plus.md).
public struct MIFAREPlusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// `06`: access conditions not met (no session with the sector's key, not a value block), or a wrong key.
        public static let authenticationError = Code("authenticationError")
        /// `07`: a read or write counter at its end.
        public static let commandOverflow = Code("commandOverflow")
        /// `08`: the card found a wrong MAC on the command.
        public static let invalidMAC = Code("invalidMAC")
        /// `09`: a block or key number that is not valid.
        public static let invalidBlock = Code("invalidBlock")
        /// `0A`: a block outside the card.
        public static let extensionError = Code("extensionError")
        /// `0B`: a command the card does not take in its state or security level.
        public static let commandInvalid = Code("commandInvalid")
        /// `0C`: a frame of the wrong length.
        public static let formatError = Code("formatError")
        /// `0F` or another status byte.
        public static let cardStatus = Code("cardStatus")
        /// An answer of a length or shape the card never sends.
        public static let malformedResponse = Code("malformedResponse")
        /// An answer whose MAC is wrong: the session is over.
        public static let responseIntegrity = Code("responseIntegrity")
        /// The card's answer to an authentication does not prove the key.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The operation needs a session.
        public static let notAuthenticated = Code("notAuthenticated")
        /// An argument out of range.
        public static let invalidArgument = Code("invalidArgument")
        /// A key that is not 16 bytes.
        public static let wrongKey = Code("wrongKey")
    }

    /// The kind of failure.
    public let code: Code
    /// What failed and where, in words.
    public let reason: String
    /// The card's status byte, when the card refused.
    public let status: UInt8?

    /// An error of a kind, with what failed.
    public init(_ code: Code, _ reason: String, status: UInt8? = nil) {
        self.code = code
        self.reason = reason
        self.status = status
    }

    /// The card's refusal of `command` with `status`.
    static func refusal(_ status: UInt8, command: String) -> MIFAREPlusError {
        let (code, words): (Code, String) =
            switch status {
            case 0x06: (.authenticationError, "access conditions not met or wrong key")
            case 0x07: (.commandOverflow, "counter overflow")
            case 0x08: (.invalidMAC, "invalid MAC")
            case 0x09: (.invalidBlock, "invalid block number")
            case 0x0A: (.extensionError, "block outside the card")
            case 0x0B: (.commandInvalid, "command not allowed in this state or security level")
            case 0x0C: (.formatError, "length error")
            case 0x0F: (.cardStatus, "general failure")
            default: (.cardStatus, "unknown status")
            }
        let hex = String(status, radix: 16, uppercase: true)
        return MIFAREPlusError(code, "\(command): \(hex.count == 1 ? "0" + hex : hex) \(words)", status: status)
    }

    /// The code and what failed.
    public var description: String { "\(code): \(reason)" }

    /// Equal when the codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
