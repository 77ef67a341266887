import Foundation

/// The iOS 14 forms that hand a `Result` to a `resultHandler`, as Core NFC's Swift overlay adds
/// them to every ``NFCISO15693Tag``. Each runs the `async` requirement and calls the handler on
/// the session's queue (directly for tags that are not the session's own objects).
///
/// The handler-taking forms with one-parameter completion handlers are disfavoured, so a closure
/// that reads as either (`{ _ in … }`) picks the completion handler.
@available(iOS 14.0, *)
extension NFCISO15693Tag {
    func resolve<Value>(
        _ handler: @escaping (Result<Value, any Error>) -> Void, _ work: @escaping @Sendable () async throws -> Value
    ) {
        nonisolated(unsafe) let handler = handler
        let deliverer = self as? NFCTagObject
        Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            nonisolated(unsafe) let outcome = result
            if let deliverer {
                deliverer.deliver { handler(outcome) }
            } else {
                handler(outcome)
            }
        }
    }

    /// Fast Read Multiple Blocks (0x2D); the `Result` form (Core NFC's iOS 14 overlay).
    public func fastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.fastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    /// Extended Fast Read Multiple Blocks (0x3D); the `Result` form (Core NFC's iOS 14 overlay).
    public func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedFastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    /// Extended Get Multiple Block Security Status (0x3C); the `Result` form (Core NFC's iOS 14 overlay).
    public func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[NSNumber], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedGetMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) }
    }

    /// `self` for the `@Sendable` closures below; tags are used from one task at a time.
    private var sendableSelf: SendableTag { SendableTag(tag: self) }

    /// Select (0x25), addressed; the `Result` form.
    @_disfavoredOverload
    public func select(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping (Result<Void, any Error>) -> Void) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.select(requestFlags: flags) }
    }

    /// Reset to Ready (0x26); the `Result` form.
    @_disfavoredOverload
    public func resetToReady(
        requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.resetToReady(requestFlags: flags) }
    }

    /// Read Single Block (0x20): the block's bytes, the security status byte first with the option flag.
    public func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, resultHandler: @escaping (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    /// Write Single Block (0x21); the `Result` form.
    @_disfavoredOverload
    public func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock) }
    }

    /// Lock Block (0x22); the `Result` form.
    @_disfavoredOverload
    public func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    /// Read Multiple Blocks (0x23): one `Data` per block of `blockRange` (status byte first with the option flag).
    public func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    /// Write Multiple Blocks (0x24), one `Data` per block of `blockRange`; the `Result` form.
    @_disfavoredOverload
    public func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.writeMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks)
        }
    }

    /// Write AFI (0x27); the `Result` form.
    @_disfavoredOverload
    public func writeAFI(
        requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeAFI(requestFlags: flags, afi: afi) }
    }

    /// Lock AFI (0x28); the `Result` form.
    @_disfavoredOverload
    public func lockAFI(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping (Result<Void, any Error>) -> Void) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockAFI(requestFlags: flags) }
    }

    /// Write DSFID (0x29); the `Result` form.
    @_disfavoredOverload
    public func writeDSFID(
        requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeDSFID(requestFlags: flags, dsfid: dsfid) }
    }

    /// Lock DSFID (0x2A); the `Result` form.
    @_disfavoredOverload
    public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping (Result<Void, any Error>) -> Void) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockDSFID(requestFlags: flags) }
    }

    /// Get System Information (0x2B) as one ``NFCISO15693SystemInfo``, fields the tag leaves out set to -1.
    public func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping (Result<NFCISO15693SystemInfo, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.systemInfo(requestFlags: flags) }
    }

    /// Get Multiple Block Security Status (0x2C): one status per block of `blockRange`.
    public func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[NSNumber], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) }
    }

    /// A custom command (0xA0…0xDF) with the tag's IC manufacturer code after the code: the answer's payload.
    public func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        resultHandler: @escaping (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.customCommand(
                requestFlags: flags, customCommandCode: customCommandCode, customRequestParameters: customRequestParameters)
        }
    }

    /// Extended Read Single Block (0x30, 2-byte block number): the block's bytes, status byte first with the option flag.
    public func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, resultHandler: @escaping (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    /// Extended Write Single Block (0x31, 2-byte block number); the `Result` form.
    @_disfavoredOverload
    public func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.extendedWriteSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock)
        }
    }

    /// Extended Lock Block (0x32, 2-byte block number); the `Result` form.
    @_disfavoredOverload
    public func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, resultHandler: @escaping (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedLockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    /// Extended Read Multiple Blocks (0x33, 2-byte block numbers): one `Data` per block of `blockRange`.
    public func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    /// Authenticate (0x35): the response flags and the answer, unprocessed.
    public func authenticate(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.authenticate(requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message)
        }
    }

    /// Key Update (0x36): the response flags and the answer, unprocessed.
    public func keyUpdate(
        requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
        resultHandler: @escaping (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.keyUpdate(requestFlags: flags, keyIdentifier: keyIdentifier, message: message) }
    }

    /// Read Buffer (0x3A): the response flags and the buffer's contents.
    public func readBuffer(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readBuffer(requestFlags: flags) }
    }

    /// Any request, flags byte, command code and data sent as given: the response flags and the data after them (nil when none).
    public func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.sendRequest(requestFlags: flags, commandCode: commandCode, data: data) }
    }
}

/// Carries a tag into a `@Sendable` closure.
struct SendableTag: @unchecked Sendable {
    let tag: any NFCISO15693Tag
}
