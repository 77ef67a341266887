import NFCTripleDES

/// The crypto method of a DESFire level's keys (MIFARE DESFire EV1 short data sheet §8.4: every
/// key of an application has the type chosen at CreateApplication, bits 7–6 of KeySett2; the PICC
/// master key's type is chosen by ChangeKey, bits 7–6 of KeyNo).
///
/// `des` covers DES and 2K3DES: 16-byte keys, single DES when both halves are equal. The least
/// significant bit of each of a DES key's first 8 bytes holds its version (bit 7 first).
public enum DESFireKeyType: String, Sendable, Hashable, Codable, CaseIterable {
    /// DES or 2K3DES, 16 bytes (method `00`).
    case des
    /// 3K3DES, 24 bytes (method `01`).
    case tdes3 = "3k3des"
    /// AES-128, 16 bytes (method `10`).
    case aes

    /// The method from KeySett2's or KeyNo's bits 7–6; `nil` for `11`.
    init?(methodBits: UInt8) {
        switch methodBits & 0xC0 {
        case 0x00: self = .des
        case 0x40: self = .tdes3
        case 0x80: self = .aes
        default: return nil
        }
    }

    /// Bits 7–6 as KeySett2 and KeyNo carry them.
    var methodBits: UInt8 {
        switch self {
        case .des: 0x00
        case .tdes3: 0x40
        case .aes: 0x80
        }
    }

    /// The key's length in bytes.
    public var keyLength: Int { self == .tdes3 ? 24 : 16 }

    /// The cipher's block size: 8 for the DES family, 16 for AES.
    var blockSize: Int { self == .aes ? 16 : 8 }

    /// The key a new level starts with: all zero, version `00`.
    var zeroKey: NTAG424Tag.Key { NTAG424Tag.Key(value: [UInt8](repeating: 0, count: keyLength)) }

    /// The version a DES-family key carries in its parity bits.
    static func parityVersion(_ key: [UInt8]) -> UInt8 {
        key.prefix(8).reduce(UInt8(0)) { $0 << 1 | $1 & 1 }
    }
}

/// One block cipher keyed for DESFire: AES-128 (swift-crypto) or TDEA (``TripleDES``), with the
/// chaining the EV1 and legacy secure messaging use (MIFARE DESFire EV1 short data sheet §9;
/// the CMAC of NIST SP 800-38B started from the session IV rather than zero).
struct DESFireCardCipher: Sendable, Hashable {
    let type: DESFireKeyType
    let key: [UInt8]
    private let tdea: TripleDES?

    /// `nil` when the key's length does not suit the type.
    init?(type: DESFireKeyType, key: [UInt8]) {
        guard key.count == type.keyLength || (type == .des && key.count == 8) else { return nil }
        self.type = type
        self.key = key
        tdea = type == .aes ? nil : try? TripleDES(key: key)
        if type != .aes, tdea == nil { return nil }
    }

    var blockSize: Int { type.blockSize }

    /// One block enciphered (`decrypt` false) or deciphered.
    func block(_ input: [UInt8], decrypt: Bool) -> [UInt8]? {
        guard input.count == blockSize else { return nil }
        if let tdea { return decrypt ? try? tdea.decrypt(block: input) : try? tdea.encrypt(block: input) }
        return NTAG424Cipher.cbc(input, key: key, decrypt: decrypt)
    }

    /// Standard CBC: `decrypt` false enciphers (Cᵢ = E(Pᵢ ⊕ Cᵢ₋₁)), true deciphers; returns the
    /// output and the last ciphertext block (the next IV).
    func cbc(_ data: [UInt8], iv: [UInt8], decrypt: Bool) -> (data: [UInt8], iv: [UInt8])? {
        guard data.count % blockSize == 0, iv.count == blockSize else { return nil }
        var chain = iv
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: blockSize) {
            let piece = Array(data[start..<start + blockSize])
            if decrypt {
                guard let plain = block(piece, decrypt: true) else { return nil }
                out += zip(plain, chain).map { $0 ^ $1 }
                chain = piece
            } else {
                guard let cipher = block(zip(piece, chain).map { $0 ^ $1 }, decrypt: false) else { return nil }
                out += cipher
                chain = cipher
            }
        }
        return (out, chain)
    }

    /// The legacy (`0A`) receiving side of the PCD's "send mode": Pᵢ = E(Cᵢ) ⊕ Cᵢ₋₁, IV zero —
    /// the reader deciphered Cᵢ = D(Pᵢ ⊕ Cᵢ₋₁) to send.
    func legacyReceive(_ data: [UInt8]) -> [UInt8]? {
        guard data.count % blockSize == 0 else { return nil }
        var chain = [UInt8](repeating: 0, count: blockSize)
        var out: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: blockSize) {
            let piece = Array(data[start..<start + blockSize])
            guard let plain = block(piece, decrypt: false) else { return nil }
            out += zip(plain, chain).map { $0 ^ $1 }
            chain = piece
        }
        return out
    }

    /// CMAC (NIST SP 800-38B) chained from `iv`: the full last block, which is also the next IV.
    func cmac(_ message: [UInt8], iv: [UInt8]) -> [UInt8]? {
        let size = blockSize
        guard let zero = block([UInt8](repeating: 0, count: size), decrypt: false) else { return nil }
        let k1 = Self.double(zero, size: size)
        let k2 = Self.double(k1, size: size)
        var padded = message
        let whole = !message.isEmpty && message.count % size == 0
        if !whole {
            padded.append(0x80)
            while padded.count % size != 0 { padded.append(0) }
        }
        let subkey = whole ? k1 : k2
        for index in 0..<size { padded[padded.count - size + index] ^= subkey[index] }
        return cbc(padded, iv: iv, decrypt: false)?.iv
    }

    /// Doubling in GF(2ⁿ): shift left, `87` (AES) or `1B` (64-bit blocks) folded in on a carry.
    private static func double(_ value: [UInt8], size: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        for index in 0..<size {
            out[index] = value[index] << 1 | (index + 1 < size ? value[index + 1] >> 7 : 0)
        }
        if value[0] & 0x80 != 0 { out[size - 1] ^= size == 16 ? 0x87 : 0x1B }
        return out
    }

    /// The MAC of a legacy session: the first 4 bytes of the last block of CBC encryption with IV
    /// zero over the data padded with zeros (DESFire's DES MAC).
    func legacyMAC(_ data: [UInt8]) -> [UInt8]? {
        var padded = data
        while padded.isEmpty || padded.count % blockSize != 0 { padded.append(0) }
        guard let last = cbc(padded, iv: [UInt8](repeating: 0, count: blockSize), decrypt: false)?.iv else { return nil }
        return Array(last.prefix(4))
    }
}
