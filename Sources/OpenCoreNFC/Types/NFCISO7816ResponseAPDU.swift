import Foundation

/// A response APDU from an ISO 7816 tag, as Core NFC's `NFCISO7816ResponseAPDU`.
///
/// The result of `sendCommand(apdu:resultHandler:)`: the response data field and the two status
/// bytes (`90 00` for success). ISO/IEC 7816-4 §5.1 and §5.6.
@available(iOS 14.0, *)
public struct NFCISO7816ResponseAPDU: Sendable {
    /// SW1, the first status byte.
    public var statusWord1: UInt8
    /// SW2, the second status byte.
    public var statusWord2: UInt8
    /// The response data field (empty when the tag sent only the status bytes).
    public var payload: Data?

    /// Creates a response from its parts. Core NFC does not make this initializer public; it
    /// is here for tests and mock tags.
    public init(statusWord1: UInt8, statusWord2: UInt8, payload: Data?) {
        self.statusWord1 = statusWord1
        self.statusWord2 = statusWord2
        self.payload = payload
    }

    /// The SDK's misspelt initializer (`paylaod`), which Apple still ships deprecated; the same as
    /// ``init(statusWord1:statusWord2:payload:)``.
    public init(statusWord1: UInt8, statusWord2: UInt8, paylaod: Data?) {
        self.init(statusWord1: statusWord1, statusWord2: statusWord2, payload: paylaod)
    }

    /// Splits the raw bytes of a response (data field, then SW1 SW2); nil under two bytes.
    init?(responseBytes bytes: Data) {
        guard bytes.count >= 2 else { return nil }
        let end = bytes.endIndex
        self.init(
            statusWord1: bytes[end - 2], statusWord2: bytes[end - 1],
            payload: Data(bytes[bytes.startIndex..<end - 2]))
    }
}
