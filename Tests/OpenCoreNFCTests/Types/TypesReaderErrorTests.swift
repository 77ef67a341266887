import Foundation
import Testing

@testable import OpenCoreNFC

@Suite struct TypesReaderErrorTests {
    static let rawValues: [(NFCReaderError.Code, Int)] = [
        (.readerErrorUnsupportedFeature, 1), (.readerErrorSecurityViolation, 2), (.readerErrorInvalidParameter, 3),
        (.readerErrorInvalidParameterLength, 4), (.readerErrorParameterOutOfBound, 5), (.readerErrorRadioDisabled, 6),
        (.readerErrorIneligible, 7), (.readerErrorAccessNotAccepted, 8),
        (.readerTransceiveErrorTagConnectionLost, 100), (.readerTransceiveErrorRetryExceeded, 101),
        (.readerTransceiveErrorTagResponseError, 102), (.readerTransceiveErrorSessionInvalidated, 103),
        (.readerTransceiveErrorTagNotConnected, 104), (.readerTransceiveErrorPacketTooLong, 105),
        (.readerSessionInvalidationErrorUserCanceled, 200), (.readerSessionInvalidationErrorSessionTimeout, 201),
        (.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, 202),
        (.readerSessionInvalidationErrorSystemIsBusy, 203), (.readerSessionInvalidationErrorFirstNDEFTagRead, 204),
        (.tagCommandConfigurationErrorInvalidParameters, 300),
        (.ndefReaderSessionErrorTagNotWritable, 400), (.ndefReaderSessionErrorTagUpdateFailure, 401),
        (.ndefReaderSessionErrorTagSizeTooSmall, 402), (.ndefReaderSessionErrorZeroLengthMessage, 403),
    ]

    @Test func codesHaveApplesRawValues() {
        for (code, raw) in Self.rawValues {
            #expect(code.rawValue == raw)
            #expect(NFCReaderError.Code(rawValue: raw) == code)
        }
        #expect(NFCReaderError.Code(rawValue: 0) == nil)
        #expect(NFCReaderError.Code(rawValue: 9) == nil)
    }

    @Test func staticShortcutsNameTheCodes() {
        let shortcuts: [NFCReaderError.Code] = [
            NFCReaderError.readerErrorUnsupportedFeature, NFCReaderError.readerErrorSecurityViolation,
            NFCReaderError.readerErrorInvalidParameter, NFCReaderError.readerErrorInvalidParameterLength,
            NFCReaderError.readerErrorParameterOutOfBound, NFCReaderError.readerErrorRadioDisabled,
            NFCReaderError.readerErrorIneligible, NFCReaderError.readerErrorAccessNotAccepted,
            NFCReaderError.readerTransceiveErrorTagConnectionLost, NFCReaderError.readerTransceiveErrorRetryExceeded,
            NFCReaderError.readerTransceiveErrorTagResponseError, NFCReaderError.readerTransceiveErrorSessionInvalidated,
            NFCReaderError.readerTransceiveErrorTagNotConnected, NFCReaderError.readerTransceiveErrorPacketTooLong,
            NFCReaderError.readerSessionInvalidationErrorUserCanceled,
            NFCReaderError.readerSessionInvalidationErrorSessionTimeout,
            NFCReaderError.readerSessionInvalidationErrorSessionTerminatedUnexpectedly,
            NFCReaderError.readerSessionInvalidationErrorSystemIsBusy,
            NFCReaderError.readerSessionInvalidationErrorFirstNDEFTagRead,
            NFCReaderError.tagCommandConfigurationErrorInvalidParameters,
            NFCReaderError.ndefReaderSessionErrorTagNotWritable, NFCReaderError.ndefReaderSessionErrorTagUpdateFailure,
            NFCReaderError.ndefReaderSessionErrorTagSizeTooSmall, NFCReaderError.ndefReaderSessionErrorZeroLengthMessage,
        ]
        #expect(shortcuts == Self.rawValues.map(\.0))
    }

    @Test func bridgesToNSErrorWithDomainAndCode() {
        let error = NFCReaderError(.readerSessionInvalidationErrorUserCanceled)
        let nsError = error as NSError
        #expect(nsError.domain == NFCErrorDomain)
        #expect(nsError.domain == "NFCError")
        #expect(nsError.code == 200)
        #expect(NFCReaderError.errorDomain == NFCErrorDomain)
        #expect(error.errorCode == 200)
        #expect(!nsError.localizedDescription.isEmpty)
        #expect(nsError.localizedDescription == error.localizedDescription)
        #expect(!nsError.localizedDescription.contains("could not be completed"), "our own wording, not the generic one")
        let described = NFCReaderError(.readerErrorInvalidParameter, userInfo: [NSLocalizedDescriptionKey: "Bad AID"])
        #expect((described as NSError).localizedDescription == "Bad AID")
        #expect(described.localizedDescription == "Bad AID")
    }

    @Test func castsBackFromAnyError() throws {
        let thrown: any Error = NFCReaderError(
            .readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 0x0F])
        let error = try #require(thrown as? NFCReaderError)
        #expect(error.code == .readerTransceiveErrorTagResponseError)
        #expect(error.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x0F)
        #expect((thrown as NSError).userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x0F)
        #expect((thrown as? NFCReaderError)?.code == .readerTransceiveErrorTagResponseError)
    }

    @Test func catchPatternsMatchCodes() {
        func fail() throws { throw NFCReaderError(.readerSessionInvalidationErrorUserCanceled) }
        var caught = ""
        do {
            try fail()
        } catch NFCReaderError.readerSessionInvalidationErrorSessionTimeout {
            caught = "timeout"
        } catch NFCReaderError.readerSessionInvalidationErrorUserCanceled {
            caught = "cancelled"
        } catch {
            caught = "other"
        }
        #expect(caught == "cancelled")
        let plain: any Error = CocoaError(.fileNoSuchFile)
        #expect(!(NFCReaderError.readerSessionInvalidationErrorUserCanceled ~= plain))
    }

    @Test func switchWithUnknownDefaultCompiles() {
        func kind(_ code: NFCReaderError.Code) -> String {
            switch code {
            case .readerSessionInvalidationErrorUserCanceled, .readerSessionInvalidationErrorFirstNDEFTagRead:
                return "quiet"
            case .readerSessionInvalidationErrorSessionTimeout: return "timeout"
            default: return "other"
            }
        }
        func exhaustive(_ status: NFCNDEFStatus) -> Int {
            switch status {
            case .notSupported: return 0
            case .readWrite: return 1
            case .readOnly: return 2
            @unknown default: return -1
            }
        }
        #expect(kind(NFCReaderError(.readerSessionInvalidationErrorUserCanceled).code) == "quiet")
        #expect(kind(.readerErrorRadioDisabled) == "other")
        #expect(exhaustive(.readOnly) == 2)
    }

    @Test func equalityComparesCodeAndUserInfo() {
        let a = NFCReaderError(.readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 1])
        #expect(a == NFCReaderError(.readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 1]))
        #expect(a != NFCReaderError(.readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 2]))
        #expect(a != NFCReaderError(.readerTransceiveErrorTagResponseError))
        #expect(a != NFCReaderError(.readerTransceiveErrorRetryExceeded, userInfo: [NFCISO15693TagResponseErrorKey: 1]))
        #expect(Set([a, a, NFCReaderError(.readerErrorRadioDisabled)]).count == 2)
    }

    @Test func wrapsAnNSErrorOfItsDomain() {
        let nsError = NSError(domain: NFCErrorDomain, code: 401, userInfo: [NFCTagResponseUnexpectedLengthErrorKey: true])
        let error = NFCReaderError(_nsError: nsError)
        #expect(error.code == .ndefReaderSessionErrorTagUpdateFailure)
        #expect(error._nsError === nsError)
        #expect(error.userInfo[NFCTagResponseUnexpectedLengthErrorKey] as? Bool == true)
    }

    @Test func userInfoKeysHaveCoreNFCsValues() {
        #expect(NFCISO15693TagResponseErrorKey == "ISO15693TagResponseErrorCode")
        #expect(NFCTagResponseUnexpectedLengthErrorKey == "TagResponseInvalidLength")
    }

    @Test func everyCodeHasADescription() {
        for (code, _) in Self.rawValues {
            #expect(!code.defaultDescription.isEmpty)
            #expect(NFCReaderError(code).errorDescription == code.defaultDescription)
        }
    }
}
