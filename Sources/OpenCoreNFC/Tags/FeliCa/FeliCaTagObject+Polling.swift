import Foundation

/// Polling (JIS X 6319-4 §9.2, FeliCa Card User's Manual Excerpted Edition §4.4.2):
/// `00 SC(2) RC TSN` → `01 IDm(8) PMm(8) [RD(2)]`.
///
/// The system code must be one the app declares; a successful Polling selects that system
/// (``currentSystemCode`` and ``currentIDm`` follow it); a Polling no system answers leaves
/// ``currentIDm`` empty, as Core NFC documents. A refused system code changes nothing.
@available(iOS 13.0, *)
extension FeliCaTagObject {
    func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot
    ) async throws -> (Data, Data) {
        let code = try FeliCaParameters.pollingSystemCode(systemCode)
        let frame: [UInt8] = [
            FeliCaFrame.polling, UInt8(code >> 8), UInt8(code & 0xFF), UInt8(requestCode.rawValue), UInt8(timeSlot.rawValue),
        ]
        let answer: [UInt8]
        do throws(NFCReaderError) {
            answer = try await pollingAnswer(frame, timeSlot: timeSlot)
        } catch {
            // No system answered (or its answer is unusable): the selection is lost.
            if error.code == .readerTransceiveErrorTagResponseError {
                let current = currentSystemCode
                selection.withLock { $0 = (Data(), current) }
            }
            throw error
        }
        let idm = Data(answer[1..<9])
        let pmm = Data(answer[9..<17])
        let requestData = Data(answer[17...].prefix(2))
        selection.withLock { $0 = (idm, Data([UInt8(code >> 8), UInt8(code & 0xFF)])) }
        return (pmm, requestData)
    }

    /// Sends Polling and checks the answer's length and response code.
    private func pollingAnswer(_ frame: [UInt8], timeSlot: NFCFeliCaPollingTimeSlot) async throws(NFCReaderError) -> [UInt8] {
        let answer = try await transceive(frame, timeout: FeliCaResponseTime.polling(timeSlot: timeSlot))
        guard answer.count >= 17 else { throw FeliCaFrame.truncated(FeliCaFrame.polling, answer.count, expected: 17) }
        guard answer[0] == FeliCaFrame.polling + 1 else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, reason: String(format: "response code %02X to Polling", answer[0]))
        }
        return answer
    }

    func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        completionHandler: @escaping (Data, Data, (any Error)?) -> Void
    ) {
        nonisolated(unsafe) let completionHandler = completionHandler
        complete({ try await self.polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) }) { result in
            switch result {
            case .success(let (pmm, requestData)): completionHandler(pmm, requestData, nil)
            case .failure(let error): completionHandler(Data(), Data(), error)
            }
        }
    }
}
