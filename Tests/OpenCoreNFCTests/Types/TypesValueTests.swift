import Foundation
import Testing

@testable import OpenCoreNFC

@Suite struct TypesValueTests {
    @Test func iso15693RequestFlagsHaveApplesBits() {
        let expected: [(NFCISO15693RequestFlag, UInt8)] = [
            (.dualSubCarriers, 0x01), (.highDataRate, 0x02), (.protocolExtension, 0x08), (.select, 0x10),
            (.address, 0x20), (.option, 0x40), (.commandSpecificBit8, 0x80),
        ]
        for (flag, raw) in expected { #expect(flag.rawValue == raw) }
        let flags: NFCISO15693RequestFlag = [.highDataRate, .address]
        #expect(flags.rawValue == 0x22)
        #expect(flags.contains(.address) && !flags.contains(.select))
        let old: RequestFlag = [.highDataRate]
        #expect(old == NFCISO15693RequestFlag.highDataRate)
    }

    @Test func iso15693ResponseFlagsHaveApplesBits() {
        let expected: [(NFCISO15693ResponseFlag, UInt8)] = [
            (.error, 0x01), (.responseBufferValid, 0x02), (.finalResponse, 0x04), (.protocolExtension, 0x08),
            (.blockSecurityStatusBit5, 0x10), (.blockSecurityStatusBit6, 0x20), (.waitTimeExtension, 0x40),
        ]
        for (flag, raw) in expected { #expect(flag.rawValue == raw) }
        #expect(NFCISO15693ResponseFlag(rawValue: 0x05) == [.error, .finalResponse])
    }

    @Test func enumsHaveApplesRawValues() {
        #expect(NFCFeliCaPollingRequestCode.noRequest.rawValue == 0)
        #expect(NFCFeliCaPollingRequestCode.systemCode.rawValue == 1)
        #expect(NFCFeliCaPollingRequestCode.communicationPerformance.rawValue == 2)
        let slots: [NFCFeliCaPollingTimeSlot] = [.max1, .max2, .max4, .max8, .max16]
        #expect(slots.map(\.rawValue) == [0, 1, 3, 7, 15])
        #expect(NFCFeliCaEncryptionId.AES.rawValue == 0x4F)
        #expect(NFCFeliCaEncryptionId.AES_DES.rawValue == 0x41)
        #expect(NFCFeliCaEncryptionId(rawValue: 0x42) == nil)
        let families: [NFCMiFareFamily] = [.unknown, .ultralight, .plus, .desfire]
        #expect(families.map(\.rawValue) == [1, 2, 3, 4])
        let tagTypes: [__NFCTagType] = [.ISO15693, .feliCa, .iso7816Compatible, .miFare]
        #expect(tagTypes.map(\.rawValue) == [1, 2, 3, 4])
        let statuses: [NFCNDEFStatus] = [.notSupported, .readWrite, .readOnly]
        #expect(statuses.map(\.rawValue) == [1, 2, 3])
        #expect(NFCNDEFStatus(rawValue: 0) == nil)
    }

    @Test func responseStructsHoldTheirFields() {
        var info = NFCISO15693SystemInfo(
            uniqueIdentifier: Data([0xE0, 0x04, 1, 2, 3, 4, 5, 6]), dataStorageFormatIdentifier: 0,
            applicationFamilyIdentifier: -1, blockSize: 4, totalBlocks: 64, icReference: 1)
        #expect(info.uniqueIdentifier.count == 8)
        #expect(info.applicationFamilyIdentifier == -1, "-1 marks a field the tag left out")
        #expect(info.blockSize * info.totalBlocks == 256)
        info.totalBlocks = 128
        #expect(info.totalBlocks == 128 && info.icReference == 1 && info.dataStorageFormatIdentifier == 0)

        let security = NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: [0, 1, 0])
        #expect(security.blockSecurityStatus == [0, 1, 0])

        let polling = NFCFeliCaPollingResponse(manufactureParameter: Data(count: 8), requestData: Data([0x12, 0xFC]))
        #expect(polling.manufactureParameter.count == 8 && polling.requestData == Data([0x12, 0xFC]))
        let status = NFCFeliCaStatusFlag(statusFlag1: 0, statusFlag2: 0)
        #expect(status.statusFlag1 == 0 && status.statusFlag2 == 0)
        let v2 = NFCFeliCaRequsetServiceV2Response(
            statusFlag1: 0, statusFlag2: 0, encryptionIdentifier: .AES, nodeKeyVersionListAES: [Data([1, 0])],
            nodeKeyVersionListDES: nil)
        #expect(v2.encryptionIdentifier == .AES && v2.nodeKeyVersionListAES == [Data([1, 0])])
        #expect(v2.nodeKeyVersionListDES == nil && v2.statusFlag1 == 0 && v2.statusFlag2 == 0)
        let version = NFCFeliCaRequestSpecificationVersionResponse(
            statusFlag1: 0xA1, statusFlag2: 0x02, basicVersion: nil, optionVersion: nil)
        #expect(version.statusFlag1 == 0xA1 && version.statusFlag2 == 0x02)
        #expect(version.basicVersion == nil && version.optionVersion == nil)
    }

    @Test func commandConfigurationsDefaultAndCopy() throws {
        let base = NFCTagCommandConfiguration()
        #expect(base.maximumRetries == 0 && base.retryInterval == 0)

        let custom = NFCISO15693CustomCommandConfiguration(manufacturerCode: 0x04, customCommandCode: 0xA5, requestParameters: nil)
        #expect(custom.requestParameters == Data(), "nil parameters read as empty")
        #expect(custom.maximumRetries == 0 && custom.retryInterval == 0)
        let retried = NFCISO15693CustomCommandConfiguration(
            manufacturerCode: 0x07, customCommandCode: 0xB2, requestParameters: Data([1]), maximumRetries: 3,
            retryInterval: 0.05)
        let copy = try #require(retried.copy() as? NFCISO15693CustomCommandConfiguration)
        #expect(copy !== retried)
        #expect(copy.manufacturerCode == 0x07 && copy.customCommandCode == 0xB2 && copy.requestParameters == Data([1]))
        #expect(copy.maximumRetries == 3 && copy.retryInterval == 0.05)
        copy.maximumRetries = 5
        #expect(retried.maximumRetries == 3, "a copy is independent")

        let read = NFCISO15693ReadMultipleBlocksConfiguration(range: NSRange(location: 2, length: 10), chunkSize: 4)
        #expect(read.range.location == 2 && read.range.length == 10 && read.chunkSize == 4)
        let readCopy = try #require(
            NFCISO15693ReadMultipleBlocksConfiguration(
                range: NSRange(location: 0, length: 1), chunkSize: 1, maximumRetries: 2, retryInterval: 0.1
            ).copy() as? NFCISO15693ReadMultipleBlocksConfiguration)
        #expect(readCopy.maximumRetries == 2 && readCopy.retryInterval == 0.1 && readCopy.chunkSize == 1)

        let empty = NFCISO15693CustomCommandConfiguration()
        #expect(empty.customCommandCode == 0 && empty.requestParameters.isEmpty)
        let emptyRead = NFCISO15693ReadMultipleBlocksConfiguration()
        #expect(emptyRead.range.length == 0 && emptyRead.chunkSize == 0)
        #expect(base.hasValidRetryParameters && retried.hasValidRetryParameters)
        base.maximumRetries = 257
        #expect(!base.hasValidRetryParameters, "Core NFC allows 0…256 retries")
        base.maximumRetries = 0
        base.retryInterval = -1
        #expect(!base.hasValidRetryParameters)
        base.retryInterval = 0
        let baseCopy = try #require(base.copy() as? NFCTagCommandConfiguration)
        #expect(baseCopy !== base && baseCopy.maximumRetries == 0)
    }

    @Test func deprecatedSpellingsStillNameTheSameValues() {
        let spellings: any DeprecatedSpellings.Type = OldCoreNFCSpellings.self
        #expect(spellings.requestFlags == [.dualSubCarriers, .highDataRate, .protocolExtension, .select, .address, .option])
        #expect(spellings.pollingRequestCodes == [.noRequest, .systemCode, .communicationPerformance])
        #expect(spellings.pollingTimeSlots == [.max1, .max2, .max4, .max8, .max16])
        #expect(spellings.encryptionIds == [.AES, .AES_DES])
    }
}

/// Reads the iOS 11 to 13 spellings without a deprecation warning in this test target: the
/// requirement is not deprecated, only its witness.
protocol DeprecatedSpellings {
    static var requestFlags: [NFCISO15693RequestFlag] { get }
    static var pollingRequestCodes: [NFCFeliCaPollingRequestCode] { get }
    static var pollingTimeSlots: [NFCFeliCaPollingTimeSlot] { get }
    static var encryptionIds: [NFCFeliCaEncryptionId] { get }
}

enum OldCoreNFCSpellings: DeprecatedSpellings {
    @available(*, deprecated)
    static var requestFlags: [NFCISO15693RequestFlag] {
        [
            .RequestFlagDualSubCarriers, .RequestFlagHighDataRate, .RequestFlagProtocolExtension, .RequestFlagSelect,
            .RequestFlagAddress, .RequestFlagOption,
        ]
    }
    @available(*, deprecated)
    static var pollingRequestCodes: [PollingRequestCode] {
        [.PollingRequestCodeNoRequest, .PollingRequestCodeSystemCode, .PollingRequestCodeCommunicationPerformance]
    }
    @available(*, deprecated)
    static var pollingTimeSlots: [PollingTimeSlot] {
        [.PollingTimeSlotMax1, .PollingTimeSlotMax2, .PollingTimeSlotMax4, .PollingTimeSlotMax8, .PollingTimeSlotMax16]
    }
    @available(*, deprecated)
    static var encryptionIds: [EncryptionId] { [.aes, .aes_des] }
}
