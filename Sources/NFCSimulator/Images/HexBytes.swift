import NFCBytes

/// Bytes that a tag image stores as a hex string (`"04a1b2c3"`); spaces and colons between
/// bytes are accepted on input, lower-case without separators is written.
public struct HexBytes: Codable, Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(arrayLiteral elements: UInt8...) { self.bytes = elements }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            bytes = try Hex.decode(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex: \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Hex.encode(bytes))
    }

    public var description: String { Hex.encode(bytes) }
}
