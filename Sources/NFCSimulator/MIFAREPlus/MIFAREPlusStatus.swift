/// A MIFARE Plus answer's status byte (NXP Reader Library's `PHAL_MFP_RESP_*`, proxmark3's
/// MIFARE Plus error table; docs/mifare-plus.md).
enum MIFAREPlusStatus: UInt8, Sendable, Hashable {
    /// Success.
    case ok = 0x90
    /// More frames follow (GetVersion).
    case additionalFrame = 0xAF
    /// Access conditions not met: no session with the sector's key, a block that is not a value block.
    case authenticationError = 0x06
    /// A counter at its end.
    case commandOverflow = 0x07
    /// A wrong MAC on the command.
    case invalidMAC = 0x08
    /// A block or key number that is not valid (block 0 for WritePerso, a key that does not exist).
    case invalidBlock = 0x09
    /// A block outside the card, or a count that runs past the sector.
    case extensionError = 0x0A
    /// A command the card does not take in its state or security level.
    case commandInvalid = 0x0B
    /// A frame of the wrong length.
    case formatError = 0x0C
    /// Anything else that failed.
    case generalFailure = 0x0F
}
