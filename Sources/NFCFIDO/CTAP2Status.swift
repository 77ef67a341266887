/// A CTAP2 status byte (CTAP 2.1 §8.2 "Status codes"), named as the spec names it.
public struct CTAP2Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The status byte.
    public let rawValue: UInt8
    /// The status of a byte; any value, named or not, is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `00` CTAP2_OK: success.
    public static let ok = CTAP2Status(rawValue: 0x00)
    /// `01` CTAP1_ERR_INVALID_COMMAND: the command is not known.
    public static let invalidCommand = CTAP2Status(rawValue: 0x01)
    /// `02` CTAP1_ERR_INVALID_PARAMETER: a parameter is invalid.
    public static let invalidParameter = CTAP2Status(rawValue: 0x02)
    /// `03` CTAP1_ERR_INVALID_LENGTH: the message has an invalid length.
    public static let invalidLength = CTAP2Status(rawValue: 0x03)
    /// `11` CTAP2_ERR_CBOR_UNEXPECTED_TYPE: a CBOR item has an unexpected type.
    public static let cborUnexpectedType = CTAP2Status(rawValue: 0x11)
    /// `12` CTAP2_ERR_INVALID_CBOR: the request's CBOR could not be parsed.
    public static let invalidCBOR = CTAP2Status(rawValue: 0x12)
    /// `14` CTAP2_ERR_MISSING_PARAMETER: a required parameter is missing.
    public static let missingParameter = CTAP2Status(rawValue: 0x14)
    /// `19` CTAP2_ERR_CREDENTIAL_EXCLUDED: a credential of the exclude list is on the authenticator.
    public static let credentialExcluded = CTAP2Status(rawValue: 0x19)
    /// `26` CTAP2_ERR_UNSUPPORTED_ALGORITHM: none of the requested algorithms is supported.
    public static let unsupportedAlgorithm = CTAP2Status(rawValue: 0x26)
    /// `28` CTAP2_ERR_KEY_STORE_FULL: no room for another discoverable credential.
    public static let keyStoreFull = CTAP2Status(rawValue: 0x28)
    /// `2B` CTAP2_ERR_UNSUPPORTED_OPTION: an option is not supported.
    public static let unsupportedOption = CTAP2Status(rawValue: 0x2B)
    /// `2C` CTAP2_ERR_INVALID_OPTION: an option is not valid for this command.
    public static let invalidOption = CTAP2Status(rawValue: 0x2C)
    /// `2D` CTAP2_ERR_KEEPALIVE_CANCEL: the request was cancelled.
    public static let keepaliveCancel = CTAP2Status(rawValue: 0x2D)
    /// `2E` CTAP2_ERR_NO_CREDENTIALS: no valid credential was found.
    public static let noCredentials = CTAP2Status(rawValue: 0x2E)
    /// `30` CTAP2_ERR_NOT_ALLOWED: the operation is not allowed now (e.g. reset long after power-up).
    public static let notAllowed = CTAP2Status(rawValue: 0x30)
    /// `31` CTAP2_ERR_PIN_INVALID: the PIN is wrong.
    public static let pinInvalid = CTAP2Status(rawValue: 0x31)
    /// `32` CTAP2_ERR_PIN_BLOCKED: no PIN retries are left.
    public static let pinBlocked = CTAP2Status(rawValue: 0x32)
    /// `33` CTAP2_ERR_PIN_AUTH_INVALID: the pinUvAuthParam did not verify.
    public static let pinAuthInvalid = CTAP2Status(rawValue: 0x33)
    /// `34` CTAP2_ERR_PIN_AUTH_BLOCKED: too many consecutive wrong PINs; a power cycle unblocks it.
    public static let pinAuthBlocked = CTAP2Status(rawValue: 0x34)
    /// `35` CTAP2_ERR_PIN_NOT_SET: no PIN has been set.
    public static let pinNotSet = CTAP2Status(rawValue: 0x35)
    /// `36` CTAP2_ERR_PUAT_REQUIRED: the command needs a pinUvAuthToken.
    public static let puatRequired = CTAP2Status(rawValue: 0x36)
    /// `37` CTAP2_ERR_PIN_POLICY_VIOLATION: the new PIN does not meet the PIN policy.
    public static let pinPolicyViolation = CTAP2Status(rawValue: 0x37)
    /// `39` CTAP2_ERR_REQUEST_TOO_LARGE: the authenticator cannot handle a request this large.
    public static let requestTooLarge = CTAP2Status(rawValue: 0x39)
    /// `3E` CTAP2_ERR_INVALID_SUBCOMMAND: the subcommand is not valid.
    public static let invalidSubcommand = CTAP2Status(rawValue: 0x3E)
    /// `40` CTAP2_ERR_UNAUTHORIZED_PERMISSION: a permission asked for is not granted.
    public static let unauthorizedPermission = CTAP2Status(rawValue: 0x40)

    private static let names: [UInt8: String] = [
        0x00: "CTAP2_OK", 0x01: "CTAP1_ERR_INVALID_COMMAND", 0x02: "CTAP1_ERR_INVALID_PARAMETER",
        0x03: "CTAP1_ERR_INVALID_LENGTH", 0x04: "CTAP1_ERR_INVALID_SEQ", 0x05: "CTAP1_ERR_TIMEOUT",
        0x06: "CTAP1_ERR_CHANNEL_BUSY", 0x0A: "CTAP1_ERR_LOCK_REQUIRED", 0x0B: "CTAP1_ERR_INVALID_CHANNEL",
        0x11: "CTAP2_ERR_CBOR_UNEXPECTED_TYPE", 0x12: "CTAP2_ERR_INVALID_CBOR", 0x14: "CTAP2_ERR_MISSING_PARAMETER",
        0x15: "CTAP2_ERR_LIMIT_EXCEEDED", 0x17: "CTAP2_ERR_FP_DATABASE_FULL", 0x18: "CTAP2_ERR_LARGE_BLOB_STORAGE_FULL",
        0x19: "CTAP2_ERR_CREDENTIAL_EXCLUDED", 0x21: "CTAP2_ERR_PROCESSING", 0x22: "CTAP2_ERR_INVALID_CREDENTIAL",
        0x23: "CTAP2_ERR_USER_ACTION_PENDING", 0x24: "CTAP2_ERR_OPERATION_PENDING", 0x25: "CTAP2_ERR_NO_OPERATIONS",
        0x26: "CTAP2_ERR_UNSUPPORTED_ALGORITHM", 0x27: "CTAP2_ERR_OPERATION_DENIED", 0x28: "CTAP2_ERR_KEY_STORE_FULL",
        0x2B: "CTAP2_ERR_UNSUPPORTED_OPTION", 0x2C: "CTAP2_ERR_INVALID_OPTION", 0x2D: "CTAP2_ERR_KEEPALIVE_CANCEL",
        0x2E: "CTAP2_ERR_NO_CREDENTIALS", 0x2F: "CTAP2_ERR_USER_ACTION_TIMEOUT", 0x30: "CTAP2_ERR_NOT_ALLOWED",
        0x31: "CTAP2_ERR_PIN_INVALID", 0x32: "CTAP2_ERR_PIN_BLOCKED", 0x33: "CTAP2_ERR_PIN_AUTH_INVALID",
        0x34: "CTAP2_ERR_PIN_AUTH_BLOCKED", 0x35: "CTAP2_ERR_PIN_NOT_SET", 0x36: "CTAP2_ERR_PUAT_REQUIRED",
        0x37: "CTAP2_ERR_PIN_POLICY_VIOLATION", 0x39: "CTAP2_ERR_REQUEST_TOO_LARGE", 0x3A: "CTAP2_ERR_ACTION_TIMEOUT",
        0x3B: "CTAP2_ERR_UP_REQUIRED", 0x3C: "CTAP2_ERR_UV_BLOCKED", 0x3D: "CTAP2_ERR_INTEGRITY_FAILURE",
        0x3E: "CTAP2_ERR_INVALID_SUBCOMMAND", 0x3F: "CTAP2_ERR_UV_INVALID", 0x40: "CTAP2_ERR_UNAUTHORIZED_PERMISSION",
        0x7F: "CTAP1_ERR_OTHER",
    ]

    /// The spec's name, e.g. `CTAP2_ERR_PIN_INVALID`, or `0xNN` for an unassigned byte.
    public var name: String {
        Self.names[rawValue] ?? "0x" + String(rawValue, radix: 16, uppercase: true)
    }

    /// The spec's name, as ``name``.
    public var description: String { name }
}
