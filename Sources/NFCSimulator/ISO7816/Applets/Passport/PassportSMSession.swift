import Crypto
import NFCTripleDES

/// The chip's side of 3DES secure messaging (ICAO Doc 9303 Part 11 §9.8): two session keys and
/// the send sequence counter, which the chip increments once for the command's MAC and once for
/// its answer's.
struct PassportSMSession: Sendable, Hashable {
    /// KS_Enc (two-key 3DES).
    let encryptionKey: [UInt8]
    /// KS_MAC (the retail MAC's K1 ‖ K2).
    let macKey: [UInt8]
    /// SSC, 8 bytes as an integer.
    var counter: UInt64

    /// `KDF(seed, c)` of Part 11 §9.7.1 for 3DES: the first 16 bytes of SHA-1(seed ‖ c), each
    /// byte's low bit making its parity odd.
    static func derive(seed: [UInt8], counter: UInt32) -> [UInt8] {
        let input =
            seed + [
                UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16), UInt8(truncatingIfNeeded: counter >> 8),
                UInt8(truncatingIfNeeded: counter),
            ]
        return Insecure.SHA1.hash(data: input).prefix(16).map { byte in
            var value = byte
            value &= 0xFE
            if value.nonzeroBitCount & 1 == 0 { value |= 1 }
            return value
        }
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

    /// The counter's 8 bytes, big-endian.
    var counterBlock: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * $0)) } }
}
