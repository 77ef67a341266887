/// A response APDU: the data field and the status word (ISO/IEC 7816-4:2020 §5.2).
public struct ResponseAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The response data field; empty when the card answered only SW1 SW2.
    public var data: [UInt8]
    /// SW1 SW2, the two bytes that end the response.
    public var statusWord: StatusWord

    /// A response from its parts; the data field defaults to empty.
    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Parses the bytes a card answered.
    /// - Throws: ``APDUError`` `.truncated` when fewer than the two status bytes arrived.
    public init(parsing bytes: [UInt8]) throws(APDUError) {
        guard bytes.count >= 2 else {
            throw APDUError(.truncated, at: bytes.count, "a response APDU ends with SW1 SW2; got \(bytes.count) byte(s)")
        }
        data = Array(bytes[..<(bytes.count - 2)])
        statusWord = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    /// Data then SW1 SW2.
    public var bytes: [UInt8] { data + statusWord.bytes }

    /// The data length and the status word, as `15 B, SW 9000`.
    public var description: String { "\(data.count) B, SW \(statusWord)" }
}
