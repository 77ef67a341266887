/// The access conditions of a MIFARE Plus sector as its trailer's bytes 6–8 hold them — the
/// MIFARE Classic format, which MIFARE Plus keeps at SL3 with "key A" and "key B" the sector's AES
/// keys (NXP MF1S50yyX/V1 §8.7, MF1S70yyX/V1 §8.7 for 16-block sectors; MIFARE Plus EV1 short
/// data sheet §8.10).
///
/// Each block group has three bits C1 C2 C3 (byte 7 high nibble C1, byte 8 low nibble C2, byte 8
/// high nibble C3, each with its complement in byte 6 and byte 7's low nibble). Bits whose
/// complements do not match give no access at all.
struct MIFAREPlusAccess: Sendable, Hashable {
    /// C1 C2 C3 of groups 0–3 (group 3 the trailer), as a 3-bit number C1·4 + C2·2 + C3.
    let groups: [UInt8]

    /// Reads bytes 6–8 of a trailer; `nil` when the complements do not match.
    init?(trailer: [UInt8]) {
        guard trailer.count == 16 else { return nil }
        let b6 = trailer[6]
        let b7 = trailer[7]
        let b8 = trailer[8]
        let c1 = b7 >> 4
        let c2 = b8 & 0x0F
        let c3 = b8 >> 4
        guard ~b6 & 0x0F == c1, (~b6 >> 4) & 0x0F == c2, ~b7 & 0x0F == c3 else { return nil }
        groups = (0..<4).map { group in
            (c1 >> UInt8(group) & 1) << 2 | (c2 >> UInt8(group) & 1) << 1 | (c3 >> UInt8(group) & 1)
        }
    }

    /// What a data block lets a key do.
    enum Right {
        case read
        case write
        case increment
        /// Decrement, transfer and restore.
        case decrement
    }

    /// The group of a block within its sector: blocks 0–2 (4-block sectors) or 0–4, 5–9, 10–14
    /// (16-block sectors), the trailer group 3.
    static func group(ofBlockIndex index: Int, sectorBlocks: Int) -> Int {
        if index == sectorBlocks - 1 { return 3 }
        return sectorBlocks == 4 ? index : index / 5
    }

    /// Whether key B (`keyB`) or key A may use `right` on a data block of `group`.
    func allows(_ right: Right, group: Int, keyB: Bool) -> Bool {
        switch (groups[group], right) {
        case (0, _): true
        case (2, .read), (4, .read), (6, .read), (1, .read): true
        case (4, .write), (6, .write), (6, .increment), (3, .read), (3, .write), (5, .read): keyB
        case (6, .decrement), (1, .decrement): true
        default: false
        }
    }

    /// Whether the key may write the sector's keys (the same rule for key A and key B).
    func allowsKeyWrite(byKeyB: Bool) -> Bool {
        switch groups[3] {
        case 0, 1: !byKeyB
        case 3, 4: byKeyB
        default: false
        }
    }

    /// Whether the key may write the access bits (the trailer).
    func allowsTrailerWrite(byKeyB: Bool) -> Bool {
        switch groups[3] {
        case 1: !byKeyB
        case 3, 5: byKeyB
        default: false
        }
    }

    /// Whether the key may read the trailer (key A always; key B unless key B is readable data).
    func allowsTrailerRead(byKeyB: Bool) -> Bool { !byKeyB || ![0, 1, 2].contains(groups[3]) }

    /// The trailer of a sector as personalised: access bits `FF 07 80` (data blocks free to both
    /// keys, key A manages keys and bits), byte 9 `69`, key fields `FF`.
    static let transportTrailer: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x80, 0x69, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
}
