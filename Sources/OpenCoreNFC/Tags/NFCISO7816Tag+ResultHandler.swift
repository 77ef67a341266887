import Foundation

/// The iOS 14 `resultHandler:` forms of the APDU commands, as Core NFC's Swift overlay adds them.
@available(iOS 14.0, *)
extension NFCISO7816Tag {
    /// Sends an APDU; the result is the response APDU or the error.
    public func sendCommand(apdu: NFCISO7816APDU, resultHandler: @escaping (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        sendCommand(apdu: apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(.success(NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data)))
            }
        }
    }
}

@available(iOS 14.0, *)
extension NFCMiFareTag {
    /// Sends an APDU to an ISO 14443-4 MIFARE; the result is the response APDU or the error.
    public func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, resultHandler: @escaping (Result<NFCISO7816ResponseAPDU, any Error>) -> Void
    ) {
        nonisolated(unsafe) let resultHandler = resultHandler
        sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(.success(NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data)))
            }
        }
    }

    /// Sends a native command; the result is the answer or the error.
    public func sendMiFareCommand(commandPacket command: Data, resultHandler: @escaping (Result<Data, any Error>) -> Void) {
        nonisolated(unsafe) let resultHandler = resultHandler
        sendMiFareCommand(commandPacket: command) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }
}
