/// Why a DESFire-family operation failed, with what and where.
///
/// A struct around an extensible ``Code`` (as `TagEngineError` and `NDEFError`): equal when the
/// codes are. A card's own refusal carries its status word in ``status`` and a code named after
/// the status (NT4H2421Gx §10.2, Table 23; MIFARE DESFire EV1 short data sheet §9).
public struct DESFireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure an error is: a named code, equal to another when the names are.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, spelled as its static constant.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A message (a SUN URL, its parameters) that is not what the chip produces: a missing
        /// or malformed parameter, a length the chip never sends.
        public static let malformedMessage = Code("malformedMessage")
        /// A key of the wrong length, or one that decrypts the PICC data into something the chip
        /// never encrypts (a wrong SDM meta read key).
        public static let wrongKey = Code("wrongKey")
        /// An answer of a length or shape the chip never sends.
        public static let malformedResponse = Code("malformedResponse")
        /// An answer whose MAC is wrong or whose data does not decrypt: the session is over.
        public static let responseIntegrity = Code("responseIntegrity")
        /// The card's answer to an authentication does not prove it holds the key.
        public static let authenticationFailed = Code("authenticationFailed")
        /// The operation needs a session (with a particular key) that is not open.
        public static let notAuthenticated = Code("notAuthenticated")
        /// An argument out of range (an offset past the file, a length that does not fit).
        public static let invalidArgument = Code("invalidArgument")
        /// `91 9D` PERMISSION_DENIED: the access rights or the state do not allow the command.
        public static let permissionDenied = Code("permissionDenied")
        /// `91 AE` AUTHENTICATION_ERROR: a wrong key, or the key the command needs is not authenticated.
        public static let authenticationError = Code("authenticationError")
        /// `91 1E` INTEGRITY_ERROR: the card found a wrong MAC or padding in the command.
        public static let integrityError = Code("integrityError")
        /// `91 7E` LENGTH_ERROR.
        public static let lengthError = Code("lengthError")
        /// `91 9E` PARAMETER_ERROR: a value the card does not accept (SDM offsets, a key number).
        public static let parameterError = Code("parameterError")
        /// `91 BE` BOUNDARY_ERROR: past the end of the file.
        public static let boundaryError = Code("boundaryError")
        /// `91 F0` FILE_NOT_FOUND.
        public static let fileNotFound = Code("fileNotFound")
        /// `91 40` NO_SUCH_KEY.
        public static let noSuchKey = Code("noSuchKey")
        /// `91 1C` ILLEGAL_COMMAND_CODE: the card does not know the command.
        public static let illegalCommand = Code("illegalCommand")
        /// `91 AD` AUTHENTICATION_DELAY: too many failed authentications; wait.
        public static let authenticationDelay = Code("authenticationDelay")
        /// `91 A0` APPLICATION_NOT_FOUND.
        public static let applicationNotFound = Code("applicationNotFound")
        /// `91 DE` DUPLICATE_ERROR: an application, file or identifier that exists already.
        public static let duplicateError = Code("duplicateError")
        /// `91 CE` COUNT_ERROR: no room for another application.
        public static let countError = Code("countError")
        /// `91 0E` OUT_OF_EEPROM_ERROR: not enough free memory.
        public static let outOfMemory = Code("outOfMemory")
        /// `91 CA` COMMAND_ABORTED, `91 EE` MEMORY_ERROR, any other `91 xx`, or an ISO status word.
        public static let cardStatus = Code("cardStatus")
    }

    /// What kind of failure this is; the only part `==` compares.
    public let code: Code
    /// What failed and why, for people; match on ``code``, not on this text.
    public let reason: String
    /// The card's status word when the card refused (`919D`, `6A82`), else `nil`.
    public let status: UInt16?

    /// An error with a code and a reason.
    public init(_ code: Code, _ reason: String, status: UInt16? = nil) {
        self.code = code
        self.reason = reason
        self.status = status
    }

    /// The error for a `91 xx` answer to `command`.
    static func status(_ sw2: UInt8, command: String) -> DESFireError {
        let (code, name): (Code, String) =
            switch sw2 {
            case 0x9D: (.permissionDenied, "permission denied")
            case 0xAE: (.authenticationError, "authentication error (wrong key, or the key it needs is not authenticated)")
            case 0x1E: (.integrityError, "integrity error (wrong MAC or padding)")
            case 0x7E: (.lengthError, "length error")
            case 0x9E: (.parameterError, "parameter error")
            case 0xBE: (.boundaryError, "boundary error (past the end of the file or its records, or beyond a value's limits)")
            case 0xF0: (.fileNotFound, "file not found")
            case 0x40: (.noSuchKey, "no such key")
            case 0x1C: (.illegalCommand, "illegal command code")
            case 0xAD: (.authenticationDelay, "authentication delay (too many failed authentications)")
            case 0xA0: (.applicationNotFound, "application not found")
            case 0xDE: (.duplicateError, "duplicate (it exists already)")
            case 0xCE: (.countError, "count error (no room for another application)")
            case 0x0E: (.outOfMemory, "out of EEPROM (not enough free memory)")
            case 0xCA: (.cardStatus, "command aborted")
            case 0xEE: (.cardStatus, "memory error")
            default: (.cardStatus, "status")
            }
        let hex = String(sw2, radix: 16, uppercase: true)
        return DESFireError(code, "\(command): 91 \(hex.count == 1 ? "0" + hex : hex) \(name)", status: 0x9100 | UInt16(sw2))
    }

    /// Equal when the codes are.
    public static func == (lhs: DESFireError, rhs: DESFireError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// `code: reason`.
    public var description: String { "\(code): \(reason)" }
}
