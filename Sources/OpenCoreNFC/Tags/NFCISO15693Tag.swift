import Foundation
import NFCBytes
import NFCTransport

/// An ISO 15693 tag, as Core NFC's `NFCISO15693Tag`.
///
/// Every command takes the request flags from the caller; the tag object adds the address flag
/// (and the UID, least significant byte first) unless the select flag is set, and strips the
/// address flag when it is. An error answer (response flag bit 1, ISO/IEC 15693-3 §7.4.2) fails
/// with `readerTransceiveErrorTagResponseError` and the tag's error code under
/// ``NFCISO15693TagResponseErrorKey``. Forms taking a `resultHandler` live in an extension, as in
/// Core NFC's Swift overlay.
@available(iOS 11.0, *)
@preconcurrency
public protocol NFCISO15693Tag: NFCNDEFTag, __NFCTag {
    /// The UID, most significant byte (`E0`) first.
    var identifier: Data { get }
    /// The IC manufacturer code (ISO/IEC 7816-6), UID byte 7.
    var icManufacturerCode: Int { get }
    /// The IC serial number, UID bytes 6…1.
    var icSerialNumber: Data { get }

    // MARK: Configured commands (iOS 11)

    /// Sends a custom command for the configuration's IC manufacturer; returns the answer's payload.
    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration, completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Sends the configuration's custom command (high data rate, addressed), retried as it says while the tag does not answer;
    /// returns the answer's payload.
    func sendCustomCommand(commandConfiguration: NFCISO15693CustomCommandConfiguration) async throws -> Data
    /// Reads a range of blocks in chunks of Read Multiple Blocks; returns the bytes end to end.
    func readMultipleBlock(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Reads the configuration's block range in chunks of Read Multiple Blocks, each retried as it says; returns the bytes end to end.
    func readMultipleBlock(readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration) async throws -> Data

    // MARK: State changes (ISO/IEC 15693-3 §10.3.2, §10.4.6, §10.4.7)

    /// Stay Quiet (0x02), addressed; the tag does not answer.
    @available(iOS 13.0, *)
    func stayQuiet(completionHandler: @escaping ((any Error)?) -> Void)
    /// Stay Quiet (0x02), addressed; the tag does not answer, so silence is success.
    @available(iOS 13.0, *)
    func stayQuiet() async throws
    /// Select (0x25), addressed.
    @available(iOS 13.0, *)
    func select(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void)
    /// Select (0x25); the tag is always addressed (the select flag is dropped from `flags`).
    @available(iOS 13.0, *)
    func select(requestFlags flags: NFCISO15693RequestFlag) async throws
    /// Reset to Ready (0x26).
    @available(iOS 13.0, *)
    func resetToReady(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void)
    /// Reset to Ready (0x26).
    @available(iOS 13.0, *)
    func resetToReady(requestFlags flags: NFCISO15693RequestFlag) async throws

    // MARK: Blocks (ISO/IEC 15693-3 §10.4.1–§10.4.5)

    /// Read Single Block (0x20); with the option flag the security status byte comes first.
    @available(iOS 13.0, *)
    func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Read Single Block (0x20); with the option flag the security status byte comes first.
    @available(iOS 13.0, *)
    func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws -> Data
    /// Write Single Block (0x21).
    @available(iOS 13.0, *)
    func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping ((any Error)?) -> Void)
    /// Write Single Block (0x21); `dataBlock` must not be empty and, once Get System Information told it, must be one block long.
    @available(iOS 13.0, *)
    func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws
    /// Lock Block (0x22).
    @available(iOS 13.0, *)
    func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, completionHandler: @escaping ((any Error)?) -> Void)
    /// Lock Block (0x22): makes the block read-only for good.
    @available(iOS 13.0, *)
    func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws
    /// Read Multiple Blocks (0x23), one `Data` per block (status byte first with the option flag).
    @available(iOS 13.0, *)
    func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Read Multiple Blocks (0x23), one `Data` per block (status byte first with the option flag).
    @available(iOS 13.0, *)
    func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data]
    /// Write Multiple Blocks (0x24), one `Data` per block.
    @available(iOS 13.0, *)
    func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping ((any Error)?) -> Void)
    /// Write Multiple Blocks (0x24), one `Data` per block of `blockRange`, all of one size.
    @available(iOS 13.0, *)
    func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws

    // MARK: AFI and DSFID (ISO/IEC 15693-3 §10.4.8–§10.4.11)

    /// Write AFI (0x27): sets the tag's application family identifier.
    @available(iOS 13.0, *)
    func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, completionHandler: @escaping ((any Error)?) -> Void)
    /// Write AFI (0x27): sets the tag's application family identifier.
    @available(iOS 13.0, *)
    func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8) async throws
    /// Lock AFI (0x28): makes the application family identifier permanent.
    @available(iOS 13.0, *)
    func lockAFI(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void)
    /// Lock AFI (0x28): makes the application family identifier permanent.
    @available(iOS 13.0, *)
    func lockAFI(requestFlags flags: NFCISO15693RequestFlag) async throws
    /// Write DSFID (0x29): sets the tag's data storage format identifier.
    @available(iOS 13.0, *)
    func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, completionHandler: @escaping ((any Error)?) -> Void)
    /// Write DSFID (0x29): sets the tag's data storage format identifier.
    @available(iOS 13.0, *)
    func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8) async throws
    /// The iOS 13 spelling of ``lockDSFID(requestFlags:completionHandler:)``.
    @available(iOS, introduced: 13.0, deprecated: 14.0, renamed: "lockDSFID(requestFlags:completionHandler:)")
    func lockDFSID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void)
    /// Lock DSFID (0x2A): makes the data storage format identifier permanent.
    @available(iOS 14.0, *)
    func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping ((any Error)?) -> Void)
    /// Lock DSFID (0x2A): makes the data storage format identifier permanent.
    @available(iOS 14.0, *)
    func lockDSFID(requestFlags flags: NFCISO15693RequestFlag) async throws

    // MARK: System information and security status (ISO/IEC 15693-3 §10.4.12, §10.4.13)

    /// Get System Information (0x2B): DSFID, AFI, block size, block count and IC reference, each
    /// -1 when the tag leaves it out.
    @available(
        iOS, introduced: 13.0, deprecated: 14.0, message: "Use getSystemInfo(requestFlags:resultHandler:) or systemInfo(requestFlags:)"
    )
    func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping (Int, Int, Int, Int, Int, (any Error)?) -> Void)
    /// Get System Information (0x2B) as one value.
    @available(iOS 14.0, *)
    func systemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> NFCISO15693SystemInfo
    /// Get Multiple Block Security Status (0x2C): one status per block.
    @available(iOS 13.0, *)
    func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([NSNumber], (any Error)?) -> Void)
    /// Get Multiple Block Security Status (0x2C): one status per block.
    @available(iOS 13.0, *)
    func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber]

    // MARK: Extended and fast commands (ISO/IEC 15693-3:2019 §10.4.14–§10.4.20)

    /// Extended Read Single Block (0x30): a 16-bit block number; with the option flag the security status byte comes first.
    @available(iOS 13.0, *)
    func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Extended Read Single Block (0x30): a 16-bit block number; with the option flag the security status byte comes first.
    @available(iOS 13.0, *)
    func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws -> Data
    /// Extended Write Single Block (0x31): a 16-bit block number.
    @available(iOS 13.0, *)
    func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping ((any Error)?) -> Void)
    /// Extended Write Single Block (0x31): a 16-bit block number.
    @available(iOS 13.0, *)
    func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data) async throws
    /// Extended Lock Block (0x32): makes the block with this 16-bit number read-only for good.
    @available(iOS 13.0, *)
    func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, completionHandler: @escaping ((any Error)?) -> Void)
    /// Extended Lock Block (0x32): makes the block with this 16-bit number read-only for good.
    @available(iOS 13.0, *)
    func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws
    /// Extended Read Multiple Blocks (0x33): 16-bit block numbers, one `Data` per block (status byte first with the option flag).
    @available(iOS 13.0, *)
    func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Extended Read Multiple Blocks (0x33): 16-bit block numbers, one `Data` per block (status byte first with the option flag).
    @available(iOS 13.0, *)
    func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data]
    /// Extended Write Multiple Blocks (0x34): 16-bit block numbers, one `Data` per block, all of one size.
    @available(iOS 14.0, *)
    func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping ((any Error)?) -> Void)
    /// Extended Write Multiple Blocks (0x34): 16-bit block numbers, one `Data` per block, all of one size.
    @available(iOS 14.0, *)
    func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws
    /// Extended Get Multiple Block Security Status (0x3C): 16-bit block numbers, one status per block.
    @available(iOS 14.0, *)
    func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([NSNumber], (any Error)?) -> Void)
    /// Extended Get Multiple Block Security Status (0x3C): 16-bit block numbers, one status per block.
    @available(iOS 14.0, *)
    func extendedGetMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber]
    /// Fast Read Multiple Blocks (0x2D).
    @available(iOS 14.0, *)
    func fastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Fast Read Multiple Blocks (0x2D), one `Data` per block (status byte first with the option flag).
    @available(iOS 14.0, *)
    func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data]
    /// Extended Fast Read Multiple Blocks (0x3D).
    @available(iOS 15.0, *)
    func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void)
    /// Extended Fast Read Multiple Blocks (0x3D): 16-bit block numbers, one `Data` per block.
    @available(iOS 15.0, *)
    func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data]

    // MARK: Custom, cryptographic and raw requests (ISO/IEC 15693-3 §10.5, ISO/IEC 29167)

    /// A custom command (0xA0…0xDF) with the tag's IC manufacturer code inserted after the code.
    @available(iOS 13.0, *)
    func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// A custom command (0xA0…0xDF) with the tag's IC manufacturer code inserted after the code; returns the answer's payload.
    @available(iOS 13.0, *)
    func customCommand(requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data) async throws
        -> Data
    /// Authenticate (0x35); the answer comes back unprocessed with its response flags.
    @available(iOS 14.0, *)
    func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws -> (
        NFCISO15693ResponseFlag, Data
    )
    /// Challenge (0x39); tags compute silently, so no answer is success.
    @available(iOS 14.0, *)
    func challenge(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping ((any Error)?) -> Void)
    /// Challenge (0x39); tags compute silently, so no answer is success.
    @available(iOS 14.0, *)
    func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data) async throws
    /// Read Buffer (0x3A).
    @available(iOS 14.0, *)
    func readBuffer(requestFlags flags: NFCISO15693RequestFlag) async throws -> (NFCISO15693ResponseFlag, Data)
    /// Key Update (0x36).
    @available(iOS 14.0, *)
    func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data) async throws -> (
        NFCISO15693ResponseFlag, Data
    )
    /// Any request: the flags byte, the command code and the data after it, sent as given.
    @available(iOS 14.0, *)
    func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?) async throws -> (NFCISO15693ResponseFlag, Data?)
}

/// The ISO 15693 tags sessions hand out.
///
/// Mutable state: the block size last learnt from Get System Information, behind a mutex.
@available(iOS 13.0, *)
final class ISO15693TagObject: NFCTagObject, NFCISO15693Tag, __NFCTag, @unchecked Sendable {
    var type: NFCTagType { .ISO15693 }
    var identifier: Data { Data(target.identifier) }
    var icManufacturerCode: Int { target.identifier.count == 8 ? Int(target.identifier[1]) : 0 }
    var icSerialNumber: Data { target.identifier.count == 8 ? Data(target.identifier[2...]) : Data() }

    /// The block size Get System Information reported, used to split multiple-block answers.
    let learntBlockSize = Guarded<Int?>(nil)
}
