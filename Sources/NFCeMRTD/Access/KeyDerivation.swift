import Crypto

/// The key derivation function of ICAO Doc 9303 Part 11 §9.7.1: `KDF(K, c) = H(K ‖ c)`, `c` a
/// 32-bit big-endian counter — 1 for the encryption key, 2 for the MAC key (3 is PACE's password
/// key). 3DES keys take the first 16 bytes of SHA-1 with their parity bits adjusted (§9.7.1.1).
package enum KeyDerivation {
    /// What the derived key is for.
    package enum Purpose: UInt32, Sendable {
        /// `c = 1`: K_Enc.
        case encryption = 1
        /// `c = 2`: K_MAC.
        case mac = 2
        /// `c = 3`: PACE's K_π.
        case password = 3
    }

    /// A two-key 3DES key (16 bytes, odd parity) for `purpose` from the seed.
    package static func tripleDESKey(seed: [UInt8], purpose: Purpose) -> [UInt8] {
        let digest = Array(Insecure.SHA1.hash(data: seed + counter(purpose)))
        return adjustParity(Array(digest[0..<16]))
    }

    /// BAC's key seed: the first 16 bytes of SHA-1 over MRZ_information (§9.7.2).
    package static func bacKeySeed(_ key: MRZKey) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: Array(key.information.utf8)).prefix(16))
    }

    /// The counter `c` as 4 big-endian bytes.
    static func counter(_ purpose: Purpose) -> [UInt8] {
        withUnsafeBytes(of: purpose.rawValue.bigEndian) { Array($0) }
    }

    /// Each byte with its lowest bit set so the byte has odd parity (FIPS 46-3: DES keys' parity bits).
    package static func adjustParity(_ key: [UInt8]) -> [UInt8] {
        key.map { byte in
            let high = byte & 0xFE
            return (high.nonzeroBitCount % 2 == 0) ? high | 1 : high
        }
    }
}
