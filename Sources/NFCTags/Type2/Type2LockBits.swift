/// The lock bits that make a Type 2 data area read-only.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1.2 (static lock bits: page 2 bytes 2–3; bit n of the
/// 16-bit value, least significant byte first, locks page n for n = 3…15, bits 0–2 are block-locking
/// bits) and §2.2.2 (dynamic lock bits: where a Lock Control TLV says, or by default right after the
/// data area, ⌈(data area − 48) ÷ 8⌉ bits each locking 8 bytes from page 10h). NTAG21x and Ultralight
/// EV1 keep theirs in their own dynamic lock page (NTAG213/215/216 §8.5.2; MF0ULX1 “Dynamic lock
/// bytes”).
enum Type2LockBits {
    /// The address of static lock byte 0 (page 2, byte 2).
    static let staticLockAddress = 10

    /// A run of dynamic lock bits.
    struct Dynamic: Sendable, Hashable {
        /// The address of the first lock byte; lock bits run from its bit 0.
        var address: Int
        /// The lock bits in use.
        var bitCount: Int
        /// The byte of block-locking bits that follows (NTAG21x and EV1 dynamic lock byte 2), if any.
        var blockLockAddress: Int?
        /// The block-locking bits in use.
        var blockLockBitCount: Int

        /// Every lock byte address.
        var byteAddresses: [Int] {
            Array(address..<address + (bitCount + 7) / 8) + (blockLockAddress.map { [$0] } ?? [])
        }

        /// The pages holding the lock bytes.
        var pages: [Int] { Array(Set(byteAddresses.map { $0 / 4 })).sorted() }

        /// The value each lock byte takes with every bit in use set.
        var lockedValues: [Int: UInt8] {
            var values: [Int: UInt8] = [:]
            for bit in 0..<bitCount { values[address + bit / 8, default: 0] |= 1 << UInt8(bit % 8) }
            if let blockLockAddress, blockLockBitCount > 0 {
                values[blockLockAddress, default: 0] |= UInt8(truncatingIfNeeded: (1 << blockLockBitCount) - 1)
            }
            return values
        }

        /// Whether any lock bit in use is set; `nil` when a lock byte was not read.
        func anyLocked(in memory: Type2Memory) -> Bool? {
            for bit in 0..<bitCount {
                guard let byte = memory.byte(at: address + bit / 8) else { return nil }
                if byte & (1 << UInt8(bit % 8)) != 0 { return true }
            }
            return false
        }
    }

    /// Where the dynamic lock bits are: from Lock Control TLVs when present, else the model's lock
    /// page, else (only when `allowDefault`) the specification's default place after the data area.
    /// `nil` when the location cannot be known.
    static func dynamic(layout: TLVAreaLayout, model: Type2Model?, dataAreaSize: Int, allowDefault: Bool) -> [Dynamic]? {
        if !layout.lockAreas.isEmpty {
            return layout.lockAreas.map { Dynamic(address: $0.address, bitCount: $0.bitCount, blockLockAddress: nil, blockLockBitCount: 0) }
        }
        if let model {
            guard let page = model.dynamicLockPage else { return [] }
            return [
                Dynamic(
                    address: page * 4, bitCount: model.dynamicLockBitCount, blockLockAddress: page * 4 + 2,
                    blockLockBitCount: model.dynamicBlockLockBitCount)
            ]
        }
        if dataAreaSize <= 48 { return [] }
        guard allowDefault else { return nil }
        return [Dynamic(address: 16 + dataAreaSize, bitCount: (dataAreaSize - 48 + 7) / 8, blockLockAddress: nil, blockLockBitCount: 0)]
    }

    /// Whether a static lock bit locks a page of the data area (pages 4 to 15); `nil` when page 2 was
    /// not read.
    static func staticLocksData(in memory: Type2Memory, dataAreaEnd: Int) -> Bool? {
        guard let low = memory.byte(at: staticLockAddress), let high = memory.byte(at: staticLockAddress + 1) else { return nil }
        let bits = UInt16(low) | UInt16(high) << 8
        let lastPage = min(15, (dataAreaEnd - 1) / 4)
        guard lastPage >= 4 else { return false }
        return (4...lastPage).contains { bits & (1 << UInt16($0)) != 0 }
    }

    /// Page 2 with every static lock bit set (bytes 0–1, serial number and internal, kept as read).
    static func lockedStaticPage(_ current: [UInt8]) -> [UInt8] {
        Array(current.prefix(2)) + [0xFF, 0xFF]
    }
}
