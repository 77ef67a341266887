import Foundation
import NFCSimulator
import NFCTransport
import OpenCoreNFC
import Testing

/// How FeliCa commands fail: parameters refused before sending, session rules, cards that stay
/// silent, answers that are short or wrong.
extension SessionTests {
    @Suite struct FeliCaErrorTests {
        let service = Data([0x0B, 0x00])

        @Test func parametersAreCheckedBeforeSending() async throws {
            let felica = try await FeliCaSessionBench.start(FeliCaLiteSTag(formatting: .ndef))
            let tag = felica.tag
            let seventeen = [Data](repeating: service, count: 17)
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.readWithoutEncryption(serviceCodeList: [], blockList: [element(0)])
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.readWithoutEncryption(serviceCodeList: seventeen, blockList: [element(0)])
            }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [])
            }
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.readWithoutEncryption(serviceCodeList: [Data([0x0B])], blockList: [element(0)])
            }
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [Data([0x80, 0, 0, 0])])
            }
            // The length bit of D0 must agree with the element's size.
            await expectReaderError(.readerErrorInvalidParameter) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [Data([0x00, 0x01])])
            }
            await expectReaderError(.readerErrorInvalidParameter) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [Data([0x80, 0x01, 0x00])])
            }
            await expectReaderError(.readerErrorInvalidParameter) {
                try await tag.writeWithoutEncryption(serviceCodeList: [service], blockList: [element(0), element(1)], blockData: [block()])
            }
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.writeWithoutEncryption(serviceCodeList: [service], blockList: [element(0)], blockData: [Data(count: 15)])
            }
            // More than a FeliCa frame holds.
            await expectReaderError(.readerTransceiveErrorPacketTooLong) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [Data](repeating: Data([0, 0, 0]), count: 81))
            }
            await expectReaderError(.readerErrorParameterOutOfBound) { try await tag.requestService(nodeCodeList: []) }
            await expectReaderError(.readerErrorParameterOutOfBound) {
                try await tag.requestService(nodeCodeList: [Data](repeating: service, count: 33))
            }
            await expectReaderError(.readerErrorInvalidParameterLength) { try await tag.requestServiceV2(nodeCodeList: [Data([1, 2, 3])]) }
            await expectReaderError(.readerErrorInvalidParameterLength) { try await tag.sendFeliCaCommand(commandPacket: Data()) }
            await expectReaderError(.readerTransceiveErrorPacketTooLong) {
                try await tag.sendFeliCaCommand(commandPacket: Data(count: 255))
            }
            felica.session.invalidate()
        }

        @Test func pollingTakesOnlyDeclaredSystemCodes() async throws {
            let felica = try await FeliCaSessionBench.start(FeliCaLiteSTag(formatting: .blank))
            let tag = felica.tag
            await expectReaderError(.readerErrorInvalidParameterLength) {
                try await tag.polling(systemCode: Data([0x88]), requestCode: .noRequest, timeSlot: .max1)
            }
            for wildcard in [Data([0xFF, 0xFF]), Data([0x88, 0xFF]), Data([0xFF, 0xB4])] {
                await expectReaderError(.readerErrorInvalidParameter) {
                    try await tag.polling(systemCode: wildcard, requestCode: .noRequest, timeSlot: .max1)
                }
            }
            await expectReaderError(.readerErrorSecurityViolation) {
                try await tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .noRequest, timeSlot: .max1)
            }
            #expect(tag.currentIDm == Data(FeliCaLiteSTag.defaultIDm))  // a refused code changes nothing
            // A declared code the card lacks (a blank Lite-S has no 12FC): no system is selected.
            await expectReaderError(.readerTransceiveErrorTagResponseError) {
                try await tag.polling(systemCode: Data([0x12, 0xFC]), requestCode: .systemCode, timeSlot: .max1)
            }
            #expect(tag.currentIDm.isEmpty)
            _ = try await tag.polling(systemCode: Data([0x88, 0xB4]), requestCode: .noRequest, timeSlot: .max1)
            #expect(tag.currentIDm == Data(FeliCaLiteSTag.defaultIDm))
            felica.session.invalidate()
        }

        @Test func sessionRulesAndSilentCards() async throws {
            let felica = try await FeliCaSessionBench.start(FeliCaLiteSTag(formatting: .ndef), connect: false)
            let tag = felica.tag
            await expectReaderError(.readerTransceiveErrorTagNotConnected) { try await tag.requestSystemCode() }
            try await felica.session.connect(to: .feliCa(tag))
            // A Lite-S knows only Polling, Read and Write: other commands go unanswered.
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.requestResponse() }
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.requestSpecificationVersion() }
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.resetMode() }
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.requestServiceV2(nodeCodeList: [service]) }
            await felica.bench.field.removeAll()
            await expectReaderError(.readerTransceiveErrorTagConnectionLost) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [element(0)])
            }
            felica.session.invalidate()
            await expectReaderError(.readerTransceiveErrorSessionInvalidated) { try await tag.requestSystemCode() }
            let error: (any Error)? = await withCheckedContinuation { continuation in
                tag.readWithoutEncryption(serviceCodeList: [service], blockList: [element(0)]) { _, _, _, error in
                    continuation.resume(returning: error)
                }
            }
            #expect((error as? NFCReaderError)?.code == .readerTransceiveErrorSessionInvalidated)
        }

        @Test func shortAndWrongAnswersAreResponseErrors() async throws {
            let idm = ScriptedFeliCaTag.idm
            let other: [UInt8] = [9, 9, 9, 9, 9, 9, 9, 9]
            let cases: [(UInt8, [UInt8])] = [
                (0x00, [0x01] + idm),  // Polling without PMm
                (0x02, [0x03] + idm + [0x02, 0x00, 0x00]),  // two key versions announced, one sent
                (0x04, [0x05] + idm),  // no mode
                (0x06, [0x07] + idm + [0x00, 0x00, 0x02] + [UInt8](repeating: 0, count: 16)),  // one block of two
                (0x08, [0x09] + idm + [0x00]),  // one status flag
                (0x0C, [0x0D] + idm + [0x01, 0x00]),  // half a system code
                (0x32, [0x33] + idm + [0x00, 0x00, 0x41, 0x00, 0x00]),  // AES and DES announced, DES missing
                (0x3C, [0x3D] + idm + [0x00, 0x00, 0x00, 0x00]),  // no basic version
                (0x3E, [0x3F] + other + [0x00, 0x00]),  // another IDm
            ]
            var answers: [UInt8: [UInt8]] = [:]
            for (code, answer) in cases { answers[code] = answer }
            let felica = try await FeliCaSessionBench.start(ScriptedFeliCaTag(answers: answers))
            let tag = felica.tag
            let code = NFCReaderError.Code.readerTransceiveErrorTagResponseError
            await expectReaderError(code) { try await tag.requestService(nodeCodeList: [service, service]) }
            await expectReaderError(code) { try await tag.requestResponse() }
            await expectReaderError(code) {
                try await tag.readWithoutEncryption(serviceCodeList: [service], blockList: [element(0), element(1)])
            }
            await expectReaderError(code) {
                try await tag.writeWithoutEncryption(serviceCodeList: [service], blockList: [element(0)], blockData: [block()])
            }
            await expectReaderError(code) { try await tag.requestSystemCode() }
            await expectReaderError(code) { try await tag.requestServiceV2(nodeCodeList: [service]) }
            await expectReaderError(code) { try await tag.requestSpecificationVersion() }
            await expectReaderError(code) { try await tag.resetMode() }
            await expectReaderError(code) {
                try await tag.polling(systemCode: Data([0x88, 0xB4]), requestCode: .noRequest, timeSlot: .max1)
            }
            felica.session.invalidate()
        }

        @Test func serviceV2AndErrorFlagsFromAScriptedCard() async throws {
            let idm = ScriptedFeliCaTag.idm
            let felica = try await FeliCaSessionBench.start(
                ScriptedFeliCaTag(answers: [
                    0x32: [0x33] + idm + [0x00, 0x00, 0x41, 0x01, 0x00, 0x02, 0x00],
                    0x3C: [0x3D] + idm + [0xFF, 0xA1],
                    0x04: [0x07] + idm + [0x00],  // the wrong response code
                ]))
            let tag = felica.tag
            let v2 = try await tag.requestServiceV2(nodeCodeList: [service])
            #expect(v2.0 == 0 && v2.2 == .AES_DES && v2.3 == [Data([0x01, 0x00])] && v2.4 == [Data([0x02, 0x00])])
            let spec = try await tag.requestSpecificationVersion()
            #expect(spec.0 == 0xFF && spec.1 == 0xA1 && spec.2.isEmpty && spec.3.isEmpty)
            await expectReaderError(.readerTransceiveErrorTagResponseError) { try await tag.requestResponse() }
            let result = await withCheckedContinuation { continuation in
                tag.requestServiceV2(nodeCodeList: [service]) { continuation.resume(returning: $0) }
            }
            let response = try result.get()
            #expect(response.encryptionIdentifier == .AES_DES && response.nodeKeyVersionListDES == [Data([0x02, 0x00])])
            felica.session.invalidate()
        }
    }
}
