/// ISO/IEC 9797-1 MAC Algorithm 3 (the "retail MAC") with DES: CBC-MAC under K1 over every
/// block, then the last chaining value deciphered under K2 and enciphered under K1 again. ICAO
/// Doc 9303 Part 11 §9.8 uses it (with padding method 2) for BAC's mutual authentication and
/// for 3DES secure messaging; the key is 16 bytes, K1 ‖ K2.
public struct RetailMAC: Sendable, Hashable {
    private let first: TripleDES
    private let second: TripleDES

    /// The MAC for a 16-byte key (K1 ‖ K2).
    /// - Throws: ``TripleDESError`` `.keyLength` for any other length.
    public init(key: [UInt8]) throws(TripleDESError) {
        guard key.count == 16 else {
            throw TripleDESError(.keyLength, "a retail MAC key has 16 bytes (K1 ‖ K2), not \(key.count)")
        }
        first = try TripleDES(key: Array(key[0..<8]))
        second = try TripleDES(key: Array(key[8..<16]))
    }

    /// The 8-byte MAC of `message`, which must already be padded to whole blocks.
    /// - Throws: ``TripleDESError`` `.blockLength` when `message` is empty or not whole blocks.
    public func mac(padded message: [UInt8]) throws(TripleDESError) -> [UInt8] {
        guard !message.isEmpty, message.count % 8 == 0 else {
            throw TripleDESError(.blockLength, "a retail MAC needs whole 8-byte blocks, not \(message.count) bytes")
        }
        var chain: UInt64 = 0
        var index = 0
        while index < message.count {
            chain = first.encrypt(chain ^ (try TripleDES.word(Array(message[index..<index + 8]))))
            index += 8
        }
        return TripleDES.bytes(first.encrypt(second.decrypt(chain)))
    }

    /// The 8-byte MAC of `message` after ISO/IEC 9797-1 padding method 2 (see ``pad(_:blockSize:)``).
    public func mac(_ message: [UInt8]) -> [UInt8] {
        // Padding makes whole, non-empty blocks, so the padded form cannot be refused.
        (try? mac(padded: Self.pad(message))) ?? []
    }

    /// ISO/IEC 9797-1 padding method 2: `80`, then zeros up to a whole block (a whole block of
    /// padding when the message already ends on one).
    public static func pad(_ message: [UInt8], blockSize: Int = 8) -> [UInt8] {
        var padded = message
        padded.append(0x80)
        while padded.count % blockSize != 0 { padded.append(0) }
        return padded
    }
}
