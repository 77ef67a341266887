import Foundation

/// Get System Information and Get Multiple Block Security Status (ISO/IEC 15693-3 §10.4.12,
/// §10.4.13, and the extended form of ISO/IEC 15693-3:2019).
@available(iOS 13.0, *)
extension ISO15693TagObject {
    func systemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> NFCISO15693SystemInfo {
        let info = try Self.systemInfo(try await command(flags, ISO15693Code.getSystemInformation))
        if info.blockSize > 0 { learntBlockSize.withLock { $0 = info.blockSize } }
        return info
    }

    func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping (Int, Int, Int, Int, Int, (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let completionHandler = completionHandler
        Task {
            do {
                let info = try await systemInfo(requestFlags: flags)
                deliver {
                    completionHandler(
                        info.dataStorageFormatIdentifier, info.applicationFamilyIdentifier, info.blockSize,
                        info.totalBlocks, info.icReference, nil)
                }
            } catch {
                deliver { completionHandler(-1, -1, -1, -1, -1, error) }
            }
        }
    }

    /// Decodes an answer: information flags, UID (least significant byte first), then DSFID (bit 1),
    /// AFI (bit 2), memory size (bit 3: blocks − 1, block size − 1 in 5 bits) and IC reference
    /// (bit 4), each present when its flag is set. A field left out is -1.
    static func systemInfo(_ payload: [UInt8]) throws(NFCReaderError) -> NFCISO15693SystemInfo {
        var reader = payload[...]
        func take(_ count: Int) throws(NFCReaderError) -> ArraySlice<UInt8> {
            guard reader.count >= count else {
                throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: "a truncated system information answer")
            }
            defer { reader = reader.dropFirst(count) }
            return reader.prefix(count)
        }
        let info = try take(1).first ?? 0
        let uid = Data(try take(8).reversed())
        let dsfid = info & 0x01 != 0 ? Int(try take(1).first ?? 0) : -1
        let afi = info & 0x02 != 0 ? Int(try take(1).first ?? 0) : -1
        var blockSize = -1
        var totalBlocks = -1
        if info & 0x04 != 0 {
            let size = Array(try take(2))
            totalBlocks = Int(size[0]) + 1
            blockSize = Int(size[1] & 0x1F) + 1
        }
        let icReference = info & 0x08 != 0 ? Int(try take(1).first ?? 0) : -1
        return NFCISO15693SystemInfo(
            uniqueIdentifier: uid, dataStorageFormatIdentifier: dsfid, applicationFamilyIdentifier: afi,
            blockSize: blockSize, totalBlocks: totalBlocks, icReference: icReference)
    }

    func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        try await securityStatus(flags, ISO15693Code.getMultipleBlockSecurityStatus, blockRange, wide: false)
    }

    func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([NSNumber], (any Error)?) -> Void
    ) {
        complete([], completionHandler) { try await self.getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) }
    }

    func extendedGetMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws -> [NSNumber]
    {
        try await securityStatus(flags, ISO15693Code.extendedGetMultipleBlockSecurityStatus, blockRange, wide: true)
    }

    func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping ([NSNumber], (any Error)?) -> Void
    ) {
        complete([], completionHandler) {
            try await self.extendedGetMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange)
        }
    }

    /// One status byte per block; a tag may stop at its last block, never answer more.
    func securityStatus(_ flags: NFCISO15693RequestFlag, _ code: UInt8, _ range: NSRange, wide: Bool) async throws(NFCReaderError)
        -> [NSNumber]
    {
        let parameters = try Self.rangeParameters(range, wide: wide)
        let payload = try await command(flags, code, parameters)
        guard !payload.isEmpty, payload.count <= range.length else { throw Self.badLength(payload.count, range.length) }
        return payload.map { NSNumber(value: $0) }
    }
}
