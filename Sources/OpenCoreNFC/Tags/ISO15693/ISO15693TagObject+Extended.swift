import Foundation

/// The extended commands with 2-byte block numbers and the fast reads (ISO/IEC 15693-3:2019
/// §10.4.14–§10.4.20).
@available(iOS 13.0, *)
extension ISO15693TagObject {
    func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws -> Data {
        let payload = try await command(flags, ISO15693Code.extendedReadSingleBlock, try Self.blockNumber(blockNumber, wide: true))
        guard payload.count > (flags.contains(.option) ? 1 : 0) else { throw Self.badLength(payload.count, 1) }
        return Data(payload)
    }

    func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        complete(Data(), completionHandler) { try await self.extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    func extendedWriteSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        let number = try Self.blockNumber(blockNumber, wide: true)
        let data = try checkedBlock(dataBlock)
        _ = try await command(flags, ISO15693Code.extendedWriteSingleBlock, number + data, timeout: .seconds(2))
    }

    func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) {
            try await self.extendedWriteSingleBlock(requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock)
        }
    }

    func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws {
        let number = try Self.blockNumber(blockNumber, wide: true)
        _ = try await command(flags, ISO15693Code.extendedLockBlock, number, timeout: .seconds(2))
    }

    func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) { try await self.extendedLockBlock(requestFlags: flags, blockNumber: blockNumber) }
    }

    func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await readBlocks(flags, ISO15693Code.extendedReadMultipleBlocks, blockRange, wide: true)
    }

    func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void
    ) {
        complete([], completionHandler) { try await self.extendedReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    func extendedWriteMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await writeBlocks(flags, ISO15693Code.extendedWriteMultipleBlocks, blockRange, dataBlocks, wide: true)
    }

    func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        complete(completionHandler) {
            try await self.extendedWriteMultipleBlocks(requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks)
        }
    }

    func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await readBlocks(flags, ISO15693Code.fastReadMultipleBlocks, blockRange, wide: false)
    }

    func fastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void
    ) {
        complete([], completionHandler) { try await self.fastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }

    func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await readBlocks(flags, ISO15693Code.extendedFastReadMultipleBlocks, blockRange, wide: true)
    }

    func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([Data], (any Error)?) -> Void
    ) {
        complete([], completionHandler) { try await self.extendedFastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) }
    }
}
