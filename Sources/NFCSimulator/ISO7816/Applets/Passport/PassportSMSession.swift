import Crypto
import NFCTripleDES

/// The chip's side of secure messaging (ICAO Doc 9303 Part 11 §9.8): two session keys and the
/// send sequence counter, which the chip increments once for the command's MAC and once for its
/// answer's. BAC opens a 3DES session (8-byte counter, zero IV, retail MAC); PACE an AES one
/// (16-byte counter from zero, IV = E(KS_Enc, SSC), CMAC's first 8 bytes), §9.8.6.
struct PassportSMSession: Sendable, Hashable {
    /// KS_Enc.
    let encryptionKey: [UInt8]
    /// KS_MAC.
    let macKey: [UInt8]
    /// Whether the keys are AES keys.
    let aes: Bool
    /// SSC's low 64 bits (an AES counter's upper half stays zero).
    var counter: UInt64

    /// `KDF(seed, c)` of Part 11 §9.7.1 for 3DES: the first 16 bytes of SHA-1(seed ‖ c), each
    /// byte's low bit making its parity odd.
    static func derive(seed: [UInt8], counter: UInt32) -> [UInt8] {
        Insecure.SHA1.hash(data: seed + bigEndian(counter)).prefix(16).map { byte in
            var value = byte
            value &= 0xFE
            if value.nonzeroBitCount & 1 == 0 { value |= 1 }
            return value
        }
    }

    /// `KDF(seed, c)` for AES keys of `length` bytes: SHA-1 for 16, SHA-256 for 24 and 32.
    static func deriveAES(seed: [UInt8], counter: UInt32, length: Int) -> [UInt8] {
        length == 16
            ? Array(Insecure.SHA1.hash(data: seed + bigEndian(counter)).prefix(16))
            : Array(SHA256.hash(data: seed + bigEndian(counter)).prefix(length))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    /// The retail MAC (ISO/IEC 9797-1 algorithm 3, padding method 2) of `data` under `key`.
    static func mac(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        guard let mac = try? RetailMAC(key: key) else { return [] }
        return mac.mac(data)
    }

    /// 3DES-CBC with a zero IV.
    static func encrypt(_ data: [UInt8], key: [UInt8]) -> [UInt8] {
        (try? TripleDES(key: key).encryptCBC(data)) ?? []
    }

    /// 3DES-CBC deciphering with a zero IV, or `nil` for data that is not whole blocks.
    static func decrypt(_ data: [UInt8], key: [UInt8]) -> [UInt8]? {
        try? TripleDES(key: key).decryptCBC(data)
    }

    // MARK: The session's own cipher

    /// The counter as the MAC input and IV take it: 8 bytes (3DES) or 16 (AES), big-endian.
    var counterBlock: [UInt8] {
        let low = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) }
        return aes ? [UInt8](repeating: 0, count: 8) + low : low
    }

    /// Padding method 2 to the cipher's block (8 or 16 bytes).
    func pad(_ data: [UInt8]) -> [UInt8] { RetailMAC.pad(data, blockSize: aes ? 16 : 8) }

    /// The 8-byte MAC of `data` (padded here).
    func mac(_ data: [UInt8]) -> [UInt8] {
        guard aes else { return Self.mac(data, key: macKey) }
        return Array((NTAG424Cipher.cmac(pad(data), key: macKey) ?? []).prefix(8))
    }

    /// CBC encryption of padded data under the current counter.
    func encrypt(_ padded: [UInt8]) -> [UInt8] {
        guard aes else { return Self.encrypt(padded, key: encryptionKey) }
        guard let iv = NTAG424Cipher.cbc(counterBlock, key: encryptionKey, decrypt: false) else { return [] }
        return NTAG424Cipher.cbc(padded, key: encryptionKey, iv: iv, decrypt: false) ?? []
    }

    /// CBC decryption under the current counter, or `nil` for data that is not whole blocks.
    func decrypt(_ data: [UInt8]) -> [UInt8]? {
        guard aes else { return Self.decrypt(data, key: encryptionKey) }
        guard let iv = NTAG424Cipher.cbc(counterBlock, key: encryptionKey, decrypt: false) else { return nil }
        return NTAG424Cipher.cbc(data, key: encryptionKey, iv: iv, decrypt: true)
    }
}
