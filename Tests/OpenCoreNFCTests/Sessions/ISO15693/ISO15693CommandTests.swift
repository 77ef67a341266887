import Foundation
import NFCSimulator
import OpenCoreNFC
import Testing

/// State, identifier, cryptographic and raw commands, each handler form, and every error mapping.
extension SessionTests {
    @Suite struct ISO15693CommandTests {
        @Test func stateCommands() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            try await tag.select(requestFlags: [.highDataRate])
            // Selected: a select-mode request (no UID) reaches the tag.
            #expect(
                try await tag.readSingleBlock(requestFlags: [.highDataRate, .select], blockNumber: 0) == Data([0xE1, 0x40, 0x27, 0x01]))
            try await handled { tag.resetToReady(requestFlags: [.highDataRate], completionHandler: $0) }
            // Ready again: a select-mode request goes unanswered.
            await expectReaderError(.readerTransceiveErrorTagResponseError) {
                try await tag.readSingleBlock(requestFlags: [.highDataRate, .select], blockNumber: 0)
            }
            try await handled { tag.stayQuiet(completionHandler: $0) }
            // Quiet: addressed commands still work.
            #expect(try await tag.readSingleBlock(requestFlags: [.highDataRate], blockNumber: 0).count == 4)
            try await resulted { tag.select(requestFlags: [.highDataRate], resultHandler: $0) }
            try await tag.stayQuiet()
            _ = bench
        }

        @Test func identifiersAndDeprecatedForms() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            try await tag.writeAFI(requestFlags: [.highDataRate], afi: 0x10)
            try await handled { tag.writeDSFID(requestFlags: [.highDataRate], dsfid: 0x22, completionHandler: $0) }
            let (dsfid, afi, blockSize, blocks, icReference): (Int, Int, Int, Int, Int) = try await withCheckedThrowingContinuation {
                continuation in
                tag.getSystemInfo(requestFlags: [.highDataRate]) { dsfid, afi, size, count, reference, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (dsfid, afi, size, count, reference))
                    }
                }
            }
            let values: [Int] = [dsfid, afi, blockSize, blocks, icReference]
            #expect(values == [0x22, 0x10, 4, 80, 1])
            let info = try await resulted { tag.getSystemInfo(requestFlags: [.highDataRate], resultHandler: $0) }
            #expect(info.applicationFamilyIdentifier == 0x10)

            try await handled { tag.lockAFI(requestFlags: [.highDataRate], completionHandler: $0) }
            await expectTagError(0x12) { try await tag.writeAFI(requestFlags: [.highDataRate], afi: 0x20) }
            await expectTagError(0x11) { try await tag.lockAFI(requestFlags: [.highDataRate]) }
            try await handled { tag.lockDFSID(requestFlags: [.highDataRate], completionHandler: $0) }
            await expectTagError(0x12) { try await tag.writeDSFID(requestFlags: [.highDataRate], dsfid: 0x01) }
            await expectTagError(0x11) { try await handled { tag.lockDSFID(requestFlags: [.highDataRate], completionHandler: $0) } }
            let nxpInfo = try await tag.customCommand(
                requestFlags: [.highDataRate], customCommandCode: 0xAB, customRequestParameters: Data())
            #expect(nxpInfo[2] == 0x05)  // AFI and DSFID lock bits
            _ = bench
        }

        @Test func handlerFormsOfBlockCommands() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            try await resulted {
                tag.writeSingleBlock(requestFlags: [.highDataRate], blockNumber: 5, dataBlock: Data([7, 7, 7, 7]), resultHandler: $0)
            }
            let single: Data = try await handled {
                tag.readSingleBlock(requestFlags: [.highDataRate], blockNumber: 5, completionHandler: $0)
            }
            #expect(single == Data([7, 7, 7, 7]))
            let multiple: [Data] = try await resulted {
                tag.readMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 5, length: 2), resultHandler: $0)
            }
            #expect(multiple == [Data([7, 7, 7, 7]), Data([0, 0, 0, 0])])
            // The iOS 11 configuration form is refused on a tag session's tags (NFCISO15693Tag.h).
            await expectReaderError(.readerErrorUnsupportedFeature) {
                let _: Data = try await handled {
                    tag.readMultipleBlock(
                        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration(range: NSRange(location: 4, length: 3), chunkSize: 2),
                        completionHandler: $0)
                }
            }
            try await handled { tag.lockBlock(requestFlags: [.highDataRate], blockNumber: 5, completionHandler: $0) }
            let status: [NSNumber] = try await handled {
                tag.getMultipleBlockSecurityStatus(
                    requestFlags: [.highDataRate], blockRange: NSRange(location: 4, length: 2), completionHandler: $0)
            }
            #expect(status.map(\.intValue) == [0, 1])
            await expectTagError(0x12) {
                try await handled {
                    tag.writeSingleBlock(
                        requestFlags: [.highDataRate], blockNumber: 5, dataBlock: Data([1, 1, 1, 1]), completionHandler: $0)
                }
            }
            // The SLIX2 lacks Write Multiple Blocks and the extended commands.
            await expectTagError(0x01) {
                try await tag.writeMultipleBlocks(
                    requestFlags: [.highDataRate], blockRange: NSRange(location: 1, length: 1), dataBlocks: [Data([1, 2, 3, 4])])
            }
            await expectTagError(0x01) { try await tag.extendedReadSingleBlock(requestFlags: [.highDataRate], blockNumber: 1) }
            // The tag stops at its last block (79) when a range runs past it; with the block size
            // known from Get System Information the short answer splits into its two blocks.
            _ = try await tag.systemInfo(requestFlags: [.highDataRate])
            let tail = try await tag.readMultipleBlocks(requestFlags: [.highDataRate], blockRange: NSRange(location: 78, length: 4))
            #expect(tail.map(\.count) == [4, 4])
            await expectTagError(0x10) { try await tag.readSingleBlock(requestFlags: [.highDataRate], blockNumber: 80) }
            _ = bench
        }

        @Test func cryptoAndRawRequests() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            await expectTagError(0x01) {
                try await tag.authenticate(requestFlags: [.highDataRate], cryptoSuiteIdentifier: 0, message: Data([0x00, 0x01]))
            }
            await expectTagError(0x01) { try await tag.keyUpdate(requestFlags: [.highDataRate], keyIdentifier: 1, message: Data([0xAA])) }
            await expectTagError(0x01) { try await tag.readBuffer(requestFlags: [.highDataRate]) }
            await expectTagError(0x01) {
                try await tag.challenge(requestFlags: [.highDataRate], cryptoSuiteIdentifier: 0, message: Data([0x01]))
            }
            await expectTagError(0x01) {
                try await handled {
                    tag.challenge(requestFlags: [.highDataRate], cryptoSuiteIdentifier: 0, message: Data(), completionHandler: $0)
                }
            }
            await expectTagError(0x01) {
                try await resulted {
                    tag.authenticate(requestFlags: [.highDataRate], cryptoSuiteIdentifier: 0, message: Data(), resultHandler: $0)
                }
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.authenticate(requestFlags: [.highDataRate], cryptoSuiteIdentifier: 256, message: Data())
            }
            // A raw, non-addressed Read Single Block.
            let (flags, data) = try await tag.sendRequest(requestFlags: 0x02, commandCode: 0x20, data: Data([0x00]))
            #expect(flags.isEmpty)
            #expect(data == Data([0xE1, 0x40, 0x27, 0x01]))
            let viaResult = try await resulted { tag.sendRequest(requestFlags: 0x02, commandCode: 0x2B, data: nil, resultHandler: $0) }
            #expect(viaResult.1?.count == 14)
            await expectTagError(0x01) { try await tag.sendRequest(requestFlags: 0x02, commandCode: 0x3F, data: nil) }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.sendRequest(requestFlags: 0x100, commandCode: 0x20, data: nil)
            }
            _ = bench
        }

        @Test func parameterValidation() async throws {
            let bench = try await ISO15693Bench(.slix2)
            defer { bench.end() }
            let tag = bench.tag
            let flags: NFCISO15693RequestFlag = [.highDataRate]
            await expectReaderError(.readerErrorInvalidParameter) {
                try await tag.readMultipleBlocks(requestFlags: flags, blockRange: NSRange(location: 0, length: 0))
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.readMultipleBlocks(requestFlags: flags, blockRange: NSRange(location: 250, length: 10))
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.readMultipleBlocks(requestFlags: flags, blockRange: NSRange(location: 256, length: 1))
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.extendedReadSingleBlock(requestFlags: flags, blockNumber: 0x10000)
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.extendedReadSingleBlock(requestFlags: flags, blockNumber: -1)
            }
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.writeSingleBlock(requestFlags: flags, blockNumber: 1, dataBlock: Data())
            }
            await expectReaderError(.readerErrorInvalidParameter) {
                try await tag.writeMultipleBlocks(
                    requestFlags: flags, blockRange: NSRange(location: 1, length: 2), dataBlocks: [Data([1, 2, 3, 4])])
            }
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.writeMultipleBlocks(
                    requestFlags: flags, blockRange: NSRange(location: 1, length: 2), dataBlocks: [Data([1, 2, 3, 4]), Data([1])])
            }
            // Once the block size is known, a data block of another size is refused before it is sent.
            _ = try await tag.systemInfo(requestFlags: flags)
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.writeSingleBlock(requestFlags: flags, blockNumber: 1, dataBlock: Data([1, 2]))
            }
            // A tag read after the session ends.
            bench.end()
            await expectReaderError(.readerTransceiveErrorSessionInvalidated) {
                try await tag.readSingleBlock(requestFlags: flags, blockNumber: 0)
            }
            _ = bench
        }
    }
}
