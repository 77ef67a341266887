/// A response APDU: the data field and the status word (ISO/IEC 7816-4:2020 §5.2).
public struct ResponseAPDU: Sendable, Hashable, CustomStringConvertible {
    public var data: [UInt8]
    public var statusWord: StatusWord

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

    public var description: String { "\(data.count) B, SW \(statusWord)" }
}
