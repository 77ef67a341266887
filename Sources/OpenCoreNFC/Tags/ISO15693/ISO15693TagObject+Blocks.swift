import Foundation

/// The block commands (ISO/IEC 15693-3 §10.4.1–§10.4.5) and the chunked read of
/// `NFCISO15693ReadMultipleBlocksConfiguration`.
@available(iOS 13.0, *)
extension ISO15693TagObject {
    /// With the option flag the block's security status byte comes first, as the tag sends it.
    func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws -> Data {
        let payload = try await command(flags, ISO15693Code.readSingleBlock, [blockNumber])
        guard payload.count > (flags.contains(.option) ? 1 : 0) else { throw Self.badLength(payload.count, 1) }
        return Data(payload)
    }

    func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        complete(Data(), completionHandler) { try await self.readSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    func writeSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        let data = try checkedBlock(dataBlock)
        _ = try await command(flags, ISO15693Code.writeSingleBlock, [blockNumber] + data, timeout: .seconds(2))
    }

    func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) { try await self.writeSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock) }
    }

    func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws {
        _ = try await command(flags, ISO15693Code.lockBlock, [blockNumber], timeout: .seconds(2))
    }

    func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) { try await self.lockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await readBlocks(flags, ISO15693Code.readMultipleBlocks, blockRange, wide: false)
    }

    func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void
    ) {
        complete([], completionHandler) { try await self.readMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    func writeMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await writeBlocks(flags, ISO15693Code.writeMultipleBlocks, blockRange, dataBlocks, wide: false)
    }

    func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) {
            try await self.writeMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks)
        }
    }

    /// Reads `range` with Read Multiple Blocks of `chunkSize` blocks each (high data rate,
    /// addressed), retrying a failed chunk as the configuration says; returns the bytes end to end.
    func readMultipleBlock(readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration) async throws -> Data {
        try refuseLegacyCall("readMultipleBlock(readConfiguration:)")
        let range = readConfiguration.range
        let chunk = readConfiguration.chunkSize
        _ = try Self.blocks(range, wide: false)
        guard chunk > 0 else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "a chunk size of \(chunk) blocks")
        }
        let retries = max(0, readConfiguration.maximumRetries)
        let interval = readConfiguration.retryInterval
        var data = Data()
        var first = range.location
        let end = range.location + range.length
        while first < end {
            let part = NSRange(location: first, length: min(chunk, end - first))
            let blocks = try await retrying(retries, interval) {
                try await self.readMultipleBlocks(requestFlags: [.highDataRate], blockRange: part)
            }
            for block in blocks { data.append(block) }
            first += part.length
        }
        return data
    }

    func readMultipleBlock(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        // A copy, so the caller may change its configuration while the command runs.
        nonisolated(unsafe) let configuration = readConfiguration.copy() as? NFCISO15693ReadMultipleBlocksConfiguration ?? readConfiguration
        complete(Data(), completionHandler) { try await self.readMultipleBlock(readConfiguration: configuration) }
    }

    /// The iOS 11 configuration calls are not supported on tags of an `NFCTagReaderSession`:
    /// `NFCISO15693Tag.h` says `sendCustomCommandWithConfiguration:` and
    /// `readMultipleBlocksWithConfiguration:` return `NFCReaderErrorUnsupportedFeature` there.
    func refuseLegacyCall(_ name: String) throws(NFCReaderError) {
        if owner is NFCTagReaderSession {
            throw NFCReaderError(
                .readerErrorUnsupportedFeature, reason: "\(name) is not supported on tags of an NFCTagReaderSession (NFCISO15693Tag.h)")
        }
    }

    // MARK: Shared by the standard, extended and fast forms

    func readBlocks(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, wide: Bool) async throws(NFCReaderError) -> [Data] {
        let parameters = try Self.rangeParameters(range, wide: wide)
        let payload = try await command(flags, code, parameters)
        return try split(payload, count: range.length, option: flags.contains(.option))
    }

    func writeBlocks(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, _ dataBlocks: [Data], wide: Bool)
        async throws(NFCReaderError)
    {
        let parameters = try Self.rangeParameters(range, wide: wide)
        let data = try checkedBlocks(dataBlocks, count: range.length)
        _ = try await command(flags, code, parameters + data, timeout: .seconds(2))
    }

    /// Runs `work` up to `retries` more times while it fails without an answer from the tag (an
    /// error answer, a lost session or tag is final).
    func retrying<Value>(_ retries: Int, _ interval: TimeInterval, _ work: () async throws -> Value) async throws -> Value {
        var attempt = 0
        while true {
            do {
                return try await work()
            } catch let error as NFCReaderError where attempt < retries && Self.isRetryable(error) {
                attempt += 1
                // On the session environment's clock (injected in tests), never the wall clock.
                if interval.isFinite, interval > 0 {
                    try? await NFCReaderSession.sleep(on: NFCSessionEnvironment.shared.clock, for: .seconds(interval))
                }
            }
        }
    }

    static func isRetryable(_ error: NFCReaderError) -> Bool {
        error.code == .readerTransceiveErrorTagResponseError && error.userInfo[NFCISO15693TagResponseErrorKey] == nil
    }
}
