/// One DES key's schedule and the cipher over one 64-bit block (FIPS PUB 46-3).
///
/// A building block of ``TripleDES``; the parity bits (the least significant bit of each key
/// byte) are ignored, as FIPS 46-3 ignores them — MIFARE DESFire keeps a key version there.
struct DES: Sendable, Hashable {
    /// K₁ … K₁₆, 48 bits each.
    let subkeys: [UInt64]

    /// The schedule of an 8-byte key.
    init(key: some Collection<UInt8>) {
        let value = key.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let chosen = DESTables.permute(value, width: 64, DESTables.permutedChoice1)
        var c = chosen >> 28
        var d = chosen & 0x0FFF_FFFF
        var subkeys: [UInt64] = []
        subkeys.reserveCapacity(16)
        for shift in DESTables.rotations {
            c = (c << UInt64(shift) | c >> UInt64(28 - shift)) & 0x0FFF_FFFF
            d = (d << UInt64(shift) | d >> UInt64(28 - shift)) & 0x0FFF_FFFF
            subkeys.append(DESTables.permute(c << 28 | d, width: 56, DESTables.permutedChoice2))
        }
        self.subkeys = subkeys
    }

    /// Enciphers (or, with the subkeys in reverse, deciphers) one block.
    func apply(_ block: UInt64, decrypt: Bool) -> UInt64 {
        let permuted = DESTables.permute(block, width: 64, DESTables.initialPermutation)
        var left = permuted >> 32
        var right = permuted & 0xFFFF_FFFF
        for round in 0..<16 {
            let key = subkeys[decrypt ? 15 - round : round]
            let next = left ^ Self.feistel(right, key)
            left = right
            right = next
        }
        return DESTables.permute(right << 32 | left, width: 64, DESTables.finalPermutation)
    }

    /// f(R, K): expansion, key mixing, the eight selection functions, then P.
    private static func feistel(_ half: UInt64, _ key: UInt64) -> UInt64 {
        let mixed = DESTables.permute(half, width: 32, DESTables.expansion) ^ key
        var selected: UInt64 = 0
        for box in 0..<8 {
            let six = Int(mixed >> UInt64(42 - 6 * box) & 0x3F)
            let row = (six & 0x20) >> 4 | six & 0x01
            let column = (six >> 1) & 0x0F
            selected = selected << 4 | UInt64(DESTables.selection[box][row * 16 + column])
        }
        return DESTables.permute(selected, width: 32, DESTables.permutation)
    }
}
