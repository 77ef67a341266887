/// MIFARE DESFire status codes: the first byte of a native answer, SW2 after `91` of a wrapped
/// one (MIFARE DESFire EV1 short data sheet MF3ICDx21_41_81 §9, "status and error codes";
/// NT4H2421Gx Table 23 for the subset NTAG 424 DNA shares).
enum DESFireStatus: UInt8, Error, Sendable {
    case ok = 0x00
    case noChanges = 0x0C
    case outOfMemory = 0x0E
    case illegalCommand = 0x1C
    case integrityError = 0x1E
    case noSuchKey = 0x40
    case lengthError = 0x7E
    case permissionDenied = 0x9D
    case parameterError = 0x9E
    case applicationNotFound = 0xA0
    case authenticationError = 0xAE
    case additionalFrame = 0xAF
    /// Read_Sig's success: the chips answer `90`, not `00` (proxmark3 `DesfireReadSignature`
    /// requires it; NXP AN12196 shows the same of NTAG 424 DNA), and an EV2 answer's MAC covers it.
    case signatureOK = 0x90
    case boundaryError = 0xBE
    case commandAborted = 0xCA
    case countError = 0xCE
    case duplicateError = 0xDE
    case fileNotFound = 0xF0
}

/// A native answer before framing: data, status, and whether it programmed EEPROM.
struct DESFireAnswer: Sendable, Hashable {
    var data: [UInt8]
    var status: DESFireStatus
    var writes: Bool

    init(_ data: [UInt8] = [], _ status: DESFireStatus = .ok, writes: Bool = false) {
        self.data = data
        self.status = status
        self.writes = writes
    }

    init(_ status: DESFireStatus) { self.init([], status) }
}
