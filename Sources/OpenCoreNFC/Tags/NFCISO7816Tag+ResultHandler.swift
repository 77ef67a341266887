import Foundation

/// The iOS 14 `resultHandler:` forms of the APDU commands, as Core NFC's Swift overlay adds them.
@available(iOS 14.0, *)
extension NFCISO7816Tag {
    /// Sends an APDU; the result is the response APDU or the error.
    public func sendCommand(apdu: NFCISO7816APDU, resultHandler: @escaping (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) {
        sendCommand(apdu: apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(.success(NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data)))
            }
        }
    }

    /// Sends an APDU and returns the response APDU (the overlay's iOS 14 `async` form).
    ///
    /// It shares its name with the tuple-returning requirement; this one is disfavoured, so
    /// `let answer = try await tag.sendCommand(apdu:)` keeps the iOS 13 tuple that published
    /// code destructures, and a declared `NFCISO7816ResponseAPDU` type picks this one.
    @_disfavoredOverload
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU {
        let (data, sw1, sw2) = try await sendCommand(apdu: apdu)
        return NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data)
    }
}

@available(iOS 14.0, *)
extension NFCMiFareTag {
    /// Sends an APDU to an ISO 14443-4 MIFARE; the result is the response APDU or the error.
    public func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, resultHandler: @escaping (Result<NFCISO7816ResponseAPDU, any Error>) -> Void
    ) {
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
        sendMiFareCommand(commandPacket: command) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }

    /// Sends an APDU to an ISO 14443-4 MIFARE and returns the response APDU (the overlay's iOS 14
    /// `async` form), disfavoured against the tuple-returning requirement as
    /// ``NFCISO7816Tag/sendCommand(apdu:)`` is.
    @_disfavoredOverload
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU {
        let (data, sw1, sw2) = try await sendMiFareISO7816Command(apdu)
        return NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data)
    }
}
