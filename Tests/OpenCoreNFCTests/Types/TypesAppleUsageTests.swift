import Foundation
import OpenCoreNFC
import Testing

/// Error handling and APDU building written the way iOS apps write them (our own text, in the
/// style of published Core NFC code). It must compile unchanged but for the import line.
@Suite struct TypesAppleUsageTests {
    func message(for error: Error) -> String? {
        if let readerError = error as? NFCReaderError {
            switch readerError.code {
            case .readerSessionInvalidationErrorFirstNDEFTagRead, .readerSessionInvalidationErrorUserCanceled:
                return nil
            case .readerTransceiveErrorTagResponseError:
                if let code = readerError.userInfo[NFCISO15693TagResponseErrorKey] as? Int {
                    return "tag error \(code)"
                }
                return "tag error"
            default:
                return readerError.localizedDescription
            }
        }
        let nsError = error as NSError
        if nsError.domain == NFCErrorDomain,
            nsError.code == NFCReaderError.Code.readerTransceiveErrorTagConnectionLost.rawValue
        {
            return "lost"
        }
        return error.localizedDescription
    }

    @Test func handlesErrorsAsAnAppWould() {
        #expect(message(for: NFCReaderError(.readerSessionInvalidationErrorUserCanceled)) == nil)
        #expect(message(for: NFCReaderError(NFCReaderError.readerSessionInvalidationErrorFirstNDEFTagRead)) == nil)
        #expect(
            message(for: NFCReaderError(.readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 16]))
                == "tag error 16")
        #expect(message(for: NSError(domain: NFCErrorDomain, code: 100)) == "lost")
        #expect(message(for: NFCReaderError(.readerSessionInvalidationErrorSystemIsBusy))?.isEmpty == false)
    }

    @Test func buildsCommandsAsAnAppWould() throws {
        let aid = Data([0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])
        let select = NFCISO7816APDU(
            instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x0C, data: aid,
            expectedResponseLength: -1)
        #expect(select.data == aid && select.expectedResponseLength == -1)
        guard let readBinary = NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00, 0x00])) else {
            Issue.record("READ BINARY did not parse")
            return
        }
        #expect(readBinary.expectedResponseLength == 256)
        let flags: NFCISO15693RequestFlag = [.highDataRate, .address]
        let custom = NFCISO15693CustomCommandConfiguration(
            manufacturerCode: 0x04, customCommandCode: 0xA0, requestParameters: Data([0x00]), maximumRetries: 2,
            retryInterval: 0.1)
        #expect(flags.rawValue == 0x22 && custom.customCommandCode == 0xA0)
        let read = NFCISO15693ReadMultipleBlocksConfiguration(range: NSMakeRange(0, 8), chunkSize: 4)
        #expect(read.range == NSRange(location: 0, length: 8))
    }
}
