/// The status bytes the emulated authenticator answers (CTAP 2.1 §8.2 "Status codes").
enum CTAP2Status: UInt8 {
    case ok = 0x00
    case invalidCommand = 0x01
    case invalidParameter = 0x02
    case invalidLength = 0x03
    case cborUnexpectedType = 0x11
    case invalidCBOR = 0x12
    case missingParameter = 0x14
    case credentialExcluded = 0x19
    case unsupportedAlgorithm = 0x26
    case keyStoreFull = 0x28
    case unsupportedOption = 0x2B
    case invalidOption = 0x2C
    case keepaliveCancel = 0x2D
    case noCredentials = 0x2E
    case notAllowed = 0x30
    case pinInvalid = 0x31
    case pinBlocked = 0x32
    case pinAuthInvalid = 0x33
    case pinAuthBlocked = 0x34
    case pinNotSet = 0x35
    case puatRequired = 0x36
    case pinPolicyViolation = 0x37
    case requestTooLarge = 0x39
    case unauthorizedPermission = 0x40
    case invalidSubcommand = 0x3E
}

/// A CTAP2 command that failed with a status byte.
struct CTAP2Failure: Error {
    let status: CTAP2Status
    /// Whether state changed before the failure (a PIN retry spent).
    var wroteMemory = false
    init(_ status: CTAP2Status, wroteMemory: Bool = false) {
        self.status = status
        self.wroteMemory = wroteMemory
    }
}
