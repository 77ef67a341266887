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
        _ handler: @escaping @Sendable (Result<Value, any Error>) -> Void, _ work: @escaping @Sendable () async throws -> Value
    ) {
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

    /// `self` for the `@Sendable` closures below; tags are used from one task at a time.
    private var sendableSelf: SendableTag { SendableTag(tag: self) }

    @_disfavoredOverload
    public func select(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.select(requestFlags: flags) }
    }

    @_disfavoredOverload
    public func resetToReady(
        requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.resetToReady(requestFlags: flags) }
    }

    public func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    @_disfavoredOverload
    public func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock) }
    }

    @_disfavoredOverload
    public func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    public func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    @_disfavoredOverload
    public func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.writeMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks)
        }
    }

    @_disfavoredOverload
    public func writeAFI(
        requestFlags flags: NFCISO15693RequestFlag, afi: UInt8, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeAFI(requestFlags: flags, afi: afi) }
    }

    @_disfavoredOverload
    public func lockAFI(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockAFI(requestFlags: flags) }
    }

    @_disfavoredOverload
    public func writeDSFID(
        requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.writeDSFID(requestFlags: flags, dsfid: dsfid) }
    }

    @_disfavoredOverload
    public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void)
    {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.lockDSFID(requestFlags: flags) }
    }

    public func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag, resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.systemInfo(requestFlags: flags) }
    }

    public func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[NSNumber], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) }
    }

    public func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.customCommand(
                requestFlags: flags, customCommandCode: customCommandCode, customRequestParameters: customRequestParameters)
        }
    }

    public func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    @_disfavoredOverload
    public func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.extendedWriteSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock)
        }
    }

    @_disfavoredOverload
    public func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, resultHandler: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedLockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    public func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.extendedReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    public func authenticate(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) {
            try await tag.tag.authenticate(requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message)
        }
    }

    public func keyUpdate(
        requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.keyUpdate(requestFlags: flags, keyIdentifier: keyIdentifier, message: message) }
    }

    public func readBuffer(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.readBuffer(requestFlags: flags) }
    }

    public func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
    ) {
        let tag = sendableSelf
        resolve(resultHandler) { try await tag.tag.sendRequest(requestFlags: flags, commandCode: commandCode, data: data) }
    }
}

/// Carries a tag into a `@Sendable` closure.
struct SendableTag: @unchecked Sendable {
    let tag: any NFCISO15693Tag
}
