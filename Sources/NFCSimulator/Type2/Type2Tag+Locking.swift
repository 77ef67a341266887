extension Type2Tag {
    /// Whether lock bits make a page read-only (NTAG21x §8.5.2–8.5.3; MF0ULX1 “Lock byte 0 and 1”, “Dynamic lock bytes”).
    ///
    /// Pages 00h–01h are locked at production. Pages 03h–0Fh follow the static lock bits of
    /// page 02h (lock byte 0 bits 3–7 lock pages 03h–07h, lock byte 1 bits 0–7 pages 08h–0Fh).
    /// User pages from 10h follow the dynamic lock bits, each locking `dynamicLockGranularity`
    /// pages. Page 02h, the dynamic lock page and the configuration pages have no lock bit: the
    /// lock bytes freeze through their block-locking bits and the configuration through CFGLCK.
    public func isLocked(_ page: Int) -> Bool {
        if page < 2 { return true }
        if (3...15).contains(page) {
            let bits = UInt16(memory[10]) | UInt16(memory[11]) << 8
            return bits & (1 << page) != 0
        }
        guard page >= 16, page <= model.lastUserPage, let lockPage = model.dynamicLockPage else { return false }
        let bits = UInt16(memory[lockPage * 4]) | UInt16(memory[lockPage * 4 + 1]) << 8
        return bits & (1 << ((page - 16) / model.dynamicLockGranularity)) != 0
    }

    /// The static lock bytes after a write to page 02h: OR-ed in, except lock bits whose
    /// block-locking bit is already set (BL_CC, bit 0, freezes L_CC; BL9-4, bit 1, freezes L4–L9;
    /// BL15-10, bit 2, freezes L10–L15).
    func mergedStaticLockBytes(_ new0: UInt8, _ new1: UInt8) -> (UInt8, UInt8) {
        let current = UInt16(memory[10]) | UInt16(memory[11]) << 8
        var incoming = UInt16(new0) | UInt16(new1) << 8
        if current & 0x01 != 0 { incoming &= ~UInt16(1 << 3) }
        if current & 0x02 != 0 { incoming &= ~UInt16(0x03F0) }
        if current & 0x04 != 0 { incoming &= ~UInt16(0xFC00) }
        let merged = current | incoming
        return (UInt8(merged & 0xFF), UInt8(merged >> 8))
    }

    /// The dynamic lock bytes 0–2 after a write: OR-ed in, except lock bits whose block-locking
    /// bit (byte 2, bit n, freezing lock bits 2n and 2n+1) is already set. Byte 3 stays BDh.
    func mergedDynamicLockBytes(_ new: [UInt8]) -> [UInt8] {
        guard let lockPage = model.dynamicLockPage else { return new }
        let offset = lockPage * 4
        let current = UInt16(memory[offset]) | UInt16(memory[offset + 1]) << 8
        let blocks = memory[offset + 2]
        var incoming = UInt16(new[0]) | UInt16(new[1]) << 8
        for bit in 0..<model.dynamicBlockLockBitCount where blocks & (1 << bit) != 0 {
            incoming &= ~(UInt16(0b11) << (2 * bit))
        }
        let merged = current | incoming
        return [UInt8(merged & 0xFF), UInt8(merged >> 8), blocks | new[2]]
    }
}
