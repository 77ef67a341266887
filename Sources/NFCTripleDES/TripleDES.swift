/// The Triple Data Encryption Algorithm (NIST SP 800-67 Rev. 2): E(x) = E_K3(D_K2(E_K1(x))) over
/// 64-bit blocks, with CBC and CMAC (NIST SP 800-38B, Rb = `1B` for 64-bit blocks).
///
/// swift-crypto offers no DES at all; MIFARE DESFire's DES, 2K3DES and 3K3DES keys and ICAO 9303
/// BAC need it, so the cipher is written here from FIPS PUB 46-3. A key is 8 bytes (single DES:
/// K1 = K2 = K3, which is how DESFire runs a DES key), 16 bytes (keying option 2, K3 = K1) or 24
/// bytes (keying option 1). Parity bits are ignored.
public struct TripleDES: Sendable, Hashable {
    private let first: DES
    private let second: DES
    private let third: DES

    /// The cipher for a key of 8, 16 or 24 bytes.
    public init(key: [UInt8]) throws(TripleDESError) {
        switch key.count {
        case 8, 16, 24: break
        default: throw TripleDESError(.keyLength, "a TDEA key has 8, 16 or 24 bytes, not \(key.count)")
        }
        let parts = stride(from: 0, to: key.count, by: 8).map { DES(key: key[$0..<$0 + 8]) }
        first = parts[0]
        second = parts.count > 1 ? parts[1] : parts[0]
        third = parts.count > 2 ? parts[2] : parts[0]
    }

    /// The block size, in bytes.
    public static let blockSize = 8

    /// Enciphers one 8-byte block.
    public func encrypt(block: [UInt8]) throws(TripleDESError) -> [UInt8] {
        Self.bytes(encrypt(try Self.word(block)))
    }

    /// Deciphers one 8-byte block.
    public func decrypt(block: [UInt8]) throws(TripleDESError) -> [UInt8] {
        Self.bytes(decrypt(try Self.word(block)))
    }

    /// CBC encryption of whole blocks, no padding.
    public func encryptCBC(_ data: [UInt8], iv: [UInt8] = zeroBlock) throws(TripleDESError) -> [UInt8] {
        var chain = try Self.word(iv, what: "IV")
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for block in try Self.words(data) {
            chain = encrypt(block ^ chain)
            out += Self.bytes(chain)
        }
        return out
    }

    /// CBC decryption of whole blocks, no padding.
    public func decryptCBC(_ data: [UInt8], iv: [UInt8] = zeroBlock) throws(TripleDESError) -> [UInt8] {
        var chain = try Self.word(iv, what: "IV")
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for block in try Self.words(data) {
            out += Self.bytes(decrypt(block) ^ chain)
            chain = block
        }
        return out
    }

    /// CMAC (NIST SP 800-38B §6.2) over any message: 8 bytes.
    public func cmac(_ message: [UInt8]) -> [UInt8] {
        let (k1, k2) = subkeys()
        let count = max(1, (message.count + 7) / 8)
        var chain: UInt64 = 0
        for index in 0..<count {
            let start = index * 8
            let piece = message[start..<min(start + 8, message.count)]
            var word = piece.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if index == count - 1 {
                if piece.count == 8 {
                    word ^= k1
                } else {
                    // Padding 10…0 to a whole block, then K2.
                    word = (word << 1 | 1) << UInt64(63 - 8 * piece.count) ^ k2
                }
            }
            chain = encrypt(chain ^ word)
        }
        return Self.bytes(chain)
    }

    /// K1 and K2 of SP 800-38B §6.1: L = E(0), doubled in GF(2⁶⁴) with Rb = `1B`.
    func subkeys() -> (UInt64, UInt64) {
        func double(_ value: UInt64) -> UInt64 { value << 1 ^ (value >> 63 == 1 ? 0x1B : 0) }
        let k1 = double(encrypt(0))
        return (k1, double(k1))
    }

    /// Enciphers one block held as a number (bit 1 the most significant).
    public func encrypt(_ block: UInt64) -> UInt64 {
        third.apply(second.apply(first.apply(block, decrypt: false), decrypt: true), decrypt: false)
    }

    /// Deciphers one block held as a number.
    public func decrypt(_ block: UInt64) -> UInt64 {
        first.apply(second.apply(third.apply(block, decrypt: true), decrypt: false), decrypt: true)
    }

    /// Eight zero bytes, the IV that DESFire and BAC start from.
    public static let zeroBlock = [UInt8](repeating: 0, count: 8)

    /// A block as a number, most significant byte first.
    public static func word(_ block: [UInt8], what: String = "block") throws(TripleDESError) -> UInt64 {
        guard block.count == 8 else { throw TripleDESError(.blockLength, "a TDEA \(what) has 8 bytes, not \(block.count)") }
        return block.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A number as a block, most significant byte first.
    public static func bytes(_ word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) }
    }

    private static func words(_ data: [UInt8]) throws(TripleDESError) -> [UInt64] {
        guard data.count % 8 == 0 else {
            throw TripleDESError(.blockLength, "CBC takes whole 8-byte blocks, not \(data.count) bytes")
        }
        return stride(from: 0, to: data.count, by: 8).map { start in
            data[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }
}
