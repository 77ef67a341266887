import NFCBytes

/// Bytes that a tag image stores as a hex string (`"04a1b2c3"`); spaces and colons between
/// bytes are accepted on input, lower-case without separators is written.
public struct HexBytes: Codable, Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The bytes the hex string stands for.
    public var bytes: [UInt8]

    /// Bytes to store as hex.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// Bytes from a literal, e.g. `[0x04, 0xA1]`.
    public init(arrayLiteral elements: UInt8...) { self.bytes = elements }

    /// Decodes a JSON string of hex digits (either case; white space, `:` and `-` between digits and a leading `0x`
    /// are ignored).
    ///
    /// - Throws: `DecodingError` when the value is not a string, holds a character that is not a hex digit, or has an
    /// odd number of digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            bytes = try Hex.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex: \(error)")
        }
    }

    /// Encodes the bytes as a string of lower-case hex digits without separators.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Hex.encode(bytes))
    }

    /// The bytes as lower-case hex digits without separators, e.g. `04a1b2`.
    public var description: String { Hex.encode(bytes) }
}
