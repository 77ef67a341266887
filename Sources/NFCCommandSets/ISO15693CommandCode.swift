/// ISO/IEC 15693-3 command codes (ISO/IEC 15693-3:2019 §10, Table 12), shared by the Type 5 tag
/// engine and Core NFC's `NFCISO15693Tag` (the simulator keeps its own reading of the standard).
///
/// The cryptographic commands (§10.4.21–§10.4.24) carry ISO/IEC 29167 messages.
package enum ISO15693CommandCode {
    /// Stay Quiet (`02`).
    package static let stayQuiet: UInt8 = 0x02
    /// Read Single Block (`20`).
    package static let readSingleBlock: UInt8 = 0x20
    /// Write Single Block (`21`).
    package static let writeSingleBlock: UInt8 = 0x21
    /// Lock Block (`22`).
    package static let lockBlock: UInt8 = 0x22
    /// Read Multiple Blocks (`23`).
    package static let readMultipleBlocks: UInt8 = 0x23
    /// Write Multiple Blocks (`24`).
    package static let writeMultipleBlocks: UInt8 = 0x24
    /// Select (`25`).
    package static let select: UInt8 = 0x25
    /// Reset to Ready (`26`).
    package static let resetToReady: UInt8 = 0x26
    /// Write AFI (`27`).
    package static let writeAFI: UInt8 = 0x27
    /// Lock AFI (`28`).
    package static let lockAFI: UInt8 = 0x28
    /// Write DSFID (`29`).
    package static let writeDSFID: UInt8 = 0x29
    /// Lock DSFID (`2A`).
    package static let lockDSFID: UInt8 = 0x2A
    /// Get System Information (`2B`).
    package static let getSystemInformation: UInt8 = 0x2B
    /// Get Multiple Block Security Status (`2C`).
    package static let getMultipleBlockSecurityStatus: UInt8 = 0x2C
    /// Fast Read Multiple Blocks (`2D`).
    package static let fastReadMultipleBlocks: UInt8 = 0x2D
    /// Extended Read Single Block (`30`): a two-byte block number.
    package static let extendedReadSingleBlock: UInt8 = 0x30
    /// Extended Write Single Block (`31`).
    package static let extendedWriteSingleBlock: UInt8 = 0x31
    /// Extended Lock Block (`32`).
    package static let extendedLockBlock: UInt8 = 0x32
    /// Extended Read Multiple Blocks (`33`).
    package static let extendedReadMultipleBlocks: UInt8 = 0x33
    /// Extended Write Multiple Blocks (`34`).
    package static let extendedWriteMultipleBlocks: UInt8 = 0x34
    /// Authenticate (`35`).
    package static let authenticate: UInt8 = 0x35
    /// Key Update (`36`).
    package static let keyUpdate: UInt8 = 0x36
    /// Challenge (`39`).
    package static let challenge: UInt8 = 0x39
    /// Read Buffer (`3A`).
    package static let readBuffer: UInt8 = 0x3A
    /// Extended Get System Information (`3B`).
    package static let extendedGetSystemInformation: UInt8 = 0x3B
    /// Extended Get Multiple Block Security Status (`3C`).
    package static let extendedGetMultipleBlockSecurityStatus: UInt8 = 0x3C
    /// Extended Fast Read Multiple Blocks (`3D`).
    package static let extendedFastReadMultipleBlocks: UInt8 = 0x3D
    /// Custom commands (§10.5): the IC manufacturer code follows the command code.
    package static let custom: ClosedRange<Int> = 0xA0...0xDF
}
