import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// Published-app flows over an ICODE SLIX2 and an ST25DV16K.
extension SessionTests {
    @Suite struct ISO15693FlowTests {
        @Test func slix2AppFlow() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            #expect(tag.icManufacturerCode == 0x04)
            #expect(tag.identifier == Data([0xE0, 0x04, 0x01, 0x08, 0x3A, 0x5C, 0x71, 0x92]))

            let info = try await tag.systemInfo(requestFlags: [.highDataRate])
            #expect(info.uniqueIdentifier == tag.identifier)
            #expect(info.blockSize == 4)
            #expect(info.totalBlocks == 80)
            #expect(info.icReference == 0x01)
            #expect(info.dataStorageFormatIdentifier == 0 && info.applicationFamilyIdentifier == 0)

            // The NDEF area: CC E1 40 27 01, then the empty message TLV and the terminator.
            let blocks = try await tag.readMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 0, length: 4))
            #expect(blocks.count == 4)
            #expect(blocks[0] == Data([0xE1, 0x40, 0x27, 0x01]))
            #expect(blocks[1] == Data([0x03, 0x00, 0xFE, 0x00]))

            try await tag.writeSingleBlock(requestFlags: [.highDataRate], blockNumber: 10, dataBlock: Data([1, 2, 3, 4]))
            #expect(try await tag.readSingleBlock(requestFlags: [.highDataRate], blockNumber: 10) == Data([1, 2, 3, 4]))

            try await tag.lockBlock(requestFlags: [.highDataRate], blockNumber: 10)
            await expectTagError(0x12) {
                try await tag.writeSingleBlock(requestFlags: [.highDataRate], blockNumber: 10, dataBlock: Data([5, 6, 7, 8]))
            }
            await expectTagError(0x11) { try await tag.lockBlock(requestFlags: [.highDataRate], blockNumber: 10) }
            // With the option flag the security status byte (bit 0: locked) leads each block.
            #expect(try await tag.readSingleBlock(requestFlags: [.highDataRate, .option], blockNumber: 10) == Data([1, 1, 2, 3, 4]))
            let withStatus = try await tag.readMultipleBlocks(
                requestFlags: [.highDataRate, .option], blockRange: NSRange(location: 9, length: 2))
            #expect(withStatus == [Data([0, 0, 0, 0, 0]), Data([1, 1, 2, 3, 4])])
            let status = try await tag.getMultipleBlockSecurityStatus(
                requestFlags: [.highDataRate], blockRange: NSRange(location: 9, length: 3))
            #expect(status.map(\.intValue) == [0, 1, 0])
            _ = bench
        }

        @Test func slix2CustomCommands() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            // GET NXP SYSTEM INFORMATION: protection pointer, condition, lock bits, feature flags.
            let nxpInfo = try await tag.customCommand(
                requestFlags: [.highDataRate], customCommandCode: 0xAB, customRequestParameters: Data())
            #expect(nxpInfo == Data([0x00, 0x00, 0x00, 0x7F, 0x35, 0x00, 0x00]))
            let viaHandler: Data = try await handled { done in
                tag.customCommand(
                    requestFlags: [.highDataRate], customCommandCode: 0xAB, customRequestParameters: Data(), completionHandler: done)
            }
            #expect(viaHandler == nxpInfo)
            let viaResult: Data = try await resulted { done in
                tag.customCommand(
                    requestFlags: [.highDataRate], customCommandCode: 0xBD, customRequestParameters: Data(), resultHandler: done)
            }
            #expect(viaResult.count == 32)
            // The iOS 11 configuration form is refused on a tag session's tags: NFCISO15693Tag.h says
            // `sendCustomCommandWithConfiguration:` returns NFCReaderErrorUnsupportedFeature there.
            let configuration = NFCISO15693CustomCommandConfiguration(
                manufacturerCode: 0x04, customCommandCode: 0xAB, requestParameters: nil)
            await expectReaderError(.readerErrorUnsupportedFeature) {
                try await tag.sendCustomCommand(commandConfiguration: configuration)
            }
            await expectTagError(0x01) {
                try await tag.customCommand(requestFlags: [.highDataRate], customCommandCode: 0xB2, customRequestParameters: Data())
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.customCommand(requestFlags: [.highDataRate], customCommandCode: 0x9F, customRequestParameters: Data())
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.customCommand(requestFlags: [.highDataRate], customCommandCode: 0xE0, customRequestParameters: Data())
            }
            // A configuration for another manufacturer's chips: the tag stays silent.
            _ = bench
        }

        @Test func extendedCommandsBeyondBlock255() async throws {
            let bench = try await ISO15693Bench(.iso15693_2k)
            defer { bench.end() }
            let tag = bench.tag
            let info = try await tag.systemInfo(requestFlags: [.highDataRate])
            #expect(info.totalBlocks == -1 && info.blockSize == -1)
            #expect(info.icReference == 0x26)

            try await tag.extendedWriteSingleBlock(requestFlags: [.highDataRate], blockNumber: 300, dataBlock: Data([9, 8, 7, 6]))
            #expect(try await tag.extendedReadSingleBlock(requestFlags: [.highDataRate], blockNumber: 300) == Data([9, 8, 7, 6]))
            try await tag.extendedWriteMultipleBlocks(
                requestFlags: [.highDataRate], blockRange: NSRange(location: 509, length: 3),
                dataBlocks: [Data([1, 1, 1, 1]), Data([2, 2, 2, 2]), Data([3, 3, 3, 3])])
            let tail = try await tag.extendedReadMultipleBlocks(
                requestFlags: [.highDataRate], blockRange: NSRange(location: 509, length: 3))
            #expect(tail == [Data([1, 1, 1, 1]), Data([2, 2, 2, 2]), Data([3, 3, 3, 3])])
            let status = try await tag.extendedGetMultipleBlockSecurityStatus(
                requestFlags: [.highDataRate], blockRange: NSRange(location: 300, length: 2))
            #expect(status.map(\.intValue) == [0, 0])
            // Past the last block, and a chip without Lock Block.
            await expectTagError(0x10) { try await tag.extendedReadSingleBlock(requestFlags: [.highDataRate], blockNumber: 512) }
            await expectTagError(0x01) { try await tag.extendedLockBlock(requestFlags: [.highDataRate], blockNumber: 300) }
            // Write Multiple Blocks within the first 256 blocks, then read them back in chunks.
            try await tag.writeMultipleBlocks(
                requestFlags: [.highDataRate], blockRange: NSRange(location: 20, length: 2),
                dataBlocks: [Data([4, 4, 4, 4]), Data([5, 5, 5, 5])])
            let blocks = try await tag.readMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 19, length: 4))
            #expect(blocks == [Data([0, 0, 0, 0]), Data([4, 4, 4, 4]), Data([5, 5, 5, 5]), Data([0, 0, 0, 0])])
            let configuration = NFCISO15693ReadMultipleBlocksConfiguration(range: NSRange(location: 19, length: 4), chunkSize: 3)
            await expectReaderError(.readerErrorUnsupportedFeature) { try await tag.readMultipleBlock(readConfiguration: configuration) }
            // ISO/IEC 15693-3:2019 fast reads are not on this chip (it has its own 0xC3 instead).
            await expectTagError(0x01) {
                try await tag.fastReadMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 0, length: 2))
            }
            await expectTagError(0x01) {
                try await tag.extendedFastReadMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 300, length: 2))
            }
            let fast = try await tag.customCommand(
                requestFlags: [.highDataRate], customCommandCode: 0xC5, customRequestParameters: Data([0x2C, 0x01, 0x00, 0x00]))
            #expect(fast == Data([9, 8, 7, 6]))
            _ = bench
        }
    }
}
