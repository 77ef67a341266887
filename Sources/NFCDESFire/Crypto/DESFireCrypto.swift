import Crypto
import _CryptoExtras

/// The AES-128 primitives of DESFire EV2 secure messaging and SUN messages, on swift-crypto:
/// single blocks, CBC without padding, CMAC (NIST SP 800-38B), MACt, ISO/IEC 9797-1 padding
/// method 2 and DESFire's CRC32.
enum DESFireCrypto {
    /// AES-CMAC, 16 bytes.
    static func cmac(key: [UInt8], _ message: [UInt8]) throws(DESFireError) -> [UInt8] {
        try checkKey(key)
        do {
            var mac = try AES.CMAC(key: SymmetricKey(data: key))
            message.withUnsafeBytes { mac.update(bufferPointer: $0) }
            return mac.finalize().withUnsafeBytes { Array($0) }
        } catch {
            throw DESFireError(.wrongKey, "AES-CMAC: \(error)")
        }
    }

    /// MACt: the 8 bytes at odd positions (1, 3, …, 15) of a 16-byte CMAC, as NTAG 424 DNA and
    /// DESFire EV2 send MACs (NT4H2421Gx §9.1.3).
    static func truncated(_ mac: [UInt8]) -> [UInt8] {
        stride(from: 1, to: 16, by: 2).map { mac[$0] }
    }

    /// One AES block, encrypted or decrypted (no mode).
    static func block(_ block: [UInt8], key: [UInt8], decrypt: Bool) throws(DESFireError) -> [UInt8] {
        try checkKey(key)
        guard block.count == 16 else { throw DESFireError(.malformedResponse, "an AES block has 16 bytes, not \(block.count)") }
        var out = block
        do {
            if decrypt {
                try AES.inversePermute(&out, key: SymmetricKey(data: key))
            } else {
                try AES.permute(&out, key: SymmetricKey(data: key))
            }
        } catch {
            throw DESFireError(.wrongKey, "AES: \(error)")
        }
        return out
    }

    /// AES-CBC decryption of whole blocks, no padding; a trailing partial block is ignored.
    static func decryptCBC(_ data: [UInt8], key: [UInt8], iv: [UInt8] = zeroBlock) throws(DESFireError) -> [UInt8] {
        var previous = iv
        var plain: [UInt8] = []
        plain.reserveCapacity(data.count)
        var index = 0
        while index + 16 <= data.count {
            let cipher = Array(data[index..<index + 16])
            let decrypted = try block(cipher, key: key, decrypt: true)
            plain += zip(decrypted, previous).map { $0 ^ $1 }
            previous = cipher
            index += 16
        }
        return plain
    }

    /// AES-CBC encryption of whole blocks, no padding (pad first with ``pad(_:)``).
    static func encryptCBC(_ data: [UInt8], key: [UInt8], iv: [UInt8] = zeroBlock) throws(DESFireError) -> [UInt8] {
        guard data.count % 16 == 0 else { throw DESFireError(.invalidArgument, "CBC takes whole 16-byte blocks, not \(data.count) bytes") }
        var previous = iv
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for start in stride(from: 0, to: data.count, by: 16) {
            previous = try block(zip(data[start..<start + 16], previous).map { $0 ^ $1 }, key: key, decrypt: false)
            out += previous
        }
        return out
    }

    /// ISO/IEC 9797-1 padding method 2: `80`, then zeros to a whole block (a whole block gains one).
    static func pad(_ data: [UInt8]) -> [UInt8] {
        var out = data + [0x80]
        while out.count % 16 != 0 { out.append(0) }
        return out
    }

    /// Removes method-2 padding; `nil` when the last block holds none.
    static func unpad(_ data: [UInt8]) -> [UInt8]? {
        guard let marker = data.lastIndex(where: { $0 != 0 }), data[marker] == 0x80, data.count - marker <= 16 else { return nil }
        return Array(data[..<marker])
    }

    /// DESFire's CRC32 (MIFARE DESFire EV1 and NT4H2421Gx §10.6.1): the IEEE 802.3 polynomial,
    /// reflected, preset `FFFFFFFF`, without the final inversion; least significant byte first.
    static func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
    }

    private static func checkKey(_ key: [UInt8]) throws(DESFireError) {
        guard key.count == 16 else { throw DESFireError(.wrongKey, "an AES-128 key has 16 bytes, not \(key.count)") }
    }

    static let zeroBlock = [UInt8](repeating: 0, count: 16)
}
