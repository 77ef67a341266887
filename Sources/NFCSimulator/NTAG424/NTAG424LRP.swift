/// The card side's Leakage Resilient Primitive (NXP AN12304), the cipher of an NTAG 424 DNA in
/// LRP mode (NT4H2421Gx §9.2), written from the application note independently of the client's.
///
/// From a 16-byte key K, with E(k, m) AES-128 of block m under key k: the 16 plaintexts come
/// from h = E(K, 55…55) by Pᵢ = E(h, AA…AA), h = E(h, 55…55) (Algorithm 1); the updated keys from
/// h = E(K, AA…AA) by UKᵢ = E(h, AA…AA), h = E(h, 55…55) (Algorithm 2). EvalLRP (Algorithm 3)
/// starts at UKᵤ and takes y = E(y, P[n]) for each nibble n of its input, high nibble first,
/// then (final) y = E(y, 00…00). LRICB (Algorithm 4) enciphers block i under EvalLRP(counter),
/// the counter stepping after each block; CMAC_LRP (Algorithm 6) is CMAC with EvalLRP(UK₀, ·)
/// as its block function.
///
/// Keys come from the tag's own key table, so a failing AES call is the only way to fail; it
/// answers `nil` and the command fails with an integrity error, as ``NTAG424Cipher`` does.
struct NTAG424LRP: Sendable, Hashable {
    let plaintexts: [[UInt8]]
    let updatedKeys: [[UInt8]]

    /// The primitive of `key` (16 bytes), with `updatedKeyCount` updated keys.
    init?(key: [UInt8], updatedKeyCount: Int = 2) {
        guard key.count == 16 else { return nil }
        let fives = [UInt8](repeating: 0x55, count: 16)
        let tens = [UInt8](repeating: 0xAA, count: 16)
        guard var h = Self.aes(fives, key: key) else { return nil }
        var plaintexts: [[UInt8]] = []
        for _ in 0..<16 {
            guard let p = Self.aes(tens, key: h), let next = Self.aes(fives, key: h) else { return nil }
            plaintexts.append(p)
            h = next
        }
        guard var g = Self.aes(tens, key: key) else { return nil }
        var updatedKeys: [[UInt8]] = []
        for _ in 0..<updatedKeyCount {
            guard let k = Self.aes(tens, key: g), let next = Self.aes(fives, key: g) else { return nil }
            updatedKeys.append(k)
            g = next
        }
        self.plaintexts = plaintexts
        self.updatedKeys = updatedKeys
    }

    /// EvalLRP(UKᵤ, bytes, final).
    func eval(_ bytes: [UInt8], updatedKey: Int, final: Bool = true) -> [UInt8]? {
        guard updatedKeys.indices.contains(updatedKey) else { return nil }
        var y = updatedKeys[updatedKey]
        for byte in bytes {
            guard let high = Self.aes(plaintexts[Int(byte >> 4)], key: y), let low = Self.aes(plaintexts[Int(byte & 0x0F)], key: high)
            else { return nil }
            y = low
        }
        guard final else { return y }
        return Self.aes(NTAG424Cipher.zeroBlock, key: y)
    }

    /// LRICB over whole blocks under UKᵤ; `counter` (big-endian, any width) steps after each block
    /// and wraps, and is left where the next call goes on.
    func lricb(_ data: [UInt8], updatedKey: Int, counter: inout [UInt8], decrypt: Bool) -> [UInt8]? {
        guard !data.isEmpty, data.count % 16 == 0, !counter.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        for start in stride(from: 0, to: data.count, by: 16) {
            guard let key = eval(counter, updatedKey: updatedKey) else { return nil }
            let block = Array(data[start..<start + 16])
            guard let done = decrypt ? NTAG424Cipher.cbc(block, key: key, decrypt: true) : Self.aes(block, key: key) else { return nil }
            out += done
            var index = counter.count - 1
            while index >= 0 {
                counter[index] &+= 1
                if counter[index] != 0 { break }
                index -= 1
            }
        }
        return out
    }

    /// CMAC_LRP, all 16 bytes: L = EvalLRP(UK₀, 0¹²⁸), K₁ = L·x, K₂ = L·x² in GF(2¹²⁸) (NIST SP
    /// 800-38B §6.1); the last block XORed with K₁ when whole, padded `80 00…` and XORed with K₂
    /// when not.
    func cmac(_ message: [UInt8]) -> [UInt8]? {
        guard let l = eval(NTAG424Cipher.zeroBlock, updatedKey: 0) else { return nil }
        let k1 = Self.times2(l)
        let k2 = Self.times2(k1)
        let count = max(1, (message.count + 15) / 16)
        var state = NTAG424Cipher.zeroBlock
        for index in 0..<count {
            var block = Array(message[min(message.count, index * 16)..<min(message.count, index * 16 + 16)])
            if index == count - 1 {
                let whole = block.count == 16
                if !whole { block = NTAG424Cipher.pad(block) }
                block = zip(block, whole ? k1 : k2).map { $0 ^ $1 }
            }
            guard let next = eval(zip(state, block).map { $0 ^ $1 }, updatedKey: 0) else { return nil }
            state = next
        }
        return state
    }

    /// Multiplication by x in GF(2¹²⁸), reduction polynomial x¹²⁸ + x⁷ + x² + x + 1.
    static func times2(_ block: [UInt8]) -> [UInt8] {
        var out = block.indices.map { index in block[index] << 1 | (index + 1 < block.count ? block[index + 1] >> 7 : 0) }
        if block[0] & 0x80 != 0 { out[15] ^= 0x87 }
        return out
    }

    /// One AES-128 block under `key`.
    static func aes(_ block: [UInt8], key: [UInt8]) -> [UInt8]? {
        NTAG424Cipher.cbc(block, key: key, decrypt: false)
    }
}
