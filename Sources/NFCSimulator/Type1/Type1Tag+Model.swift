extension Type1Tag {
    /// The Type 1 chips: Broadcom (formerly Innovision) Topaz 96 and Topaz 512.
    ///
    /// BCM20203T512 data sheet (20203T512-DS102-R), "BCM20203T512 Identification" and Section 2
    /// (physical memory map); NFC Forum Type 1 Tag Operation 1.1 (T1TOP) §2.1–2.2 for the static
    /// and dynamic memory layouts the two chips carry.
    public enum Model: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Topaz 96 (BCM20203T96): blocks 00h–0Eh, 96 data bytes, the static memory layout.
        case topaz96 = "Topaz96"
        /// Topaz 512 (BCM20203T512): 64 blocks in 4 segments, the dynamic memory layout.
        case topaz512 = "Topaz512"

        /// The model name, e.g. `Topaz512`.
        public var description: String { rawValue }

        /// HR0, the header ROM byte that tells the chips apart: `11` Topaz 96, `12` Topaz 512.
        public var headerROM0: UInt8 { self == .topaz96 ? 0x11 : 0x12 }

        /// HR1, "reserved for internal use"; the data sheet's RID example answers `48`.
        public var headerROM1: UInt8 { 0x48 }

        /// Blocks of 8 bytes: 15 (00h–0Eh) or 64.
        public var blockCount: Int { self == .topaz96 ? 15 : 64 }

        /// The whole memory in bytes, UID block included: 120 or 512.
        public var memorySize: Int { blockCount * 8 }

        /// Whether the chip knows the 8-byte commands READ8, WRITE-E8, WRITE-NE8 and RSEG.
        public var hasBlockCommands: Bool { self == .topaz512 }

        /// The lock bits set at the factory, LOCK-0 and LOCK-1: block 00h, and the reserved and
        /// lock blocks (0Dh, 0Eh, and 0Fh on Topaz 512) (data sheet Figure 14).
        var factoryLocks: [UInt8] { self == .topaz96 ? [0x01, 0x60] : [0x01, 0xE0] }

        /// Blocks 01h–… as an NDEF-formatted tag ships: the capability container (NMN `E1`,
        /// version 1.0, TMS = memory / 8 − 1, RWA `00`), then on Topaz 512 the Lock Control TLV
        /// for LOCK-2…7 (48 bits at block 0Fh byte 2, 8 bytes per bit) and the Memory Control TLV
        /// for OTP-6/7 (2 bytes at block 0Fh byte 0), then an empty NDEF TLV and a Terminator
        /// (T1TOP §2.3, §2.4; the Topaz 512's factory image as read from shipped tags).
        var formattedData: [UInt8] {
            switch self {
            case .topaz96: [0xE1, 0x10, 0x0E, 0x00, 0x03, 0x00, 0xFE]
            case .topaz512:
                [0xE1, 0x10, 0x3F, 0x00, 0x01, 0x03, 0xF2, 0x30, 0x33, 0x02, 0x03, 0xF0, 0x02, 0x03, 0x03, 0x00, 0xFE]
            }
        }

        /// The byte address of a block's lock bit: LOCK-0/1 in block 0Eh bytes 0–1 for blocks
        /// 00h–0Fh, LOCK-2…7 in block 0Fh bytes 2–7 for blocks 10h–3Fh (data sheet Figures 14–17).
        func lockBit(of block: Int) -> (address: Int, mask: UInt8) {
            if block < 16 { return (0x0E * 8 + block / 8, UInt8(1) << UInt8(block % 8)) }
            let index = block - 16
            return (0x0F * 8 + 2 + index / 8, UInt8(1) << UInt8(index % 8))
        }

        /// The blocks that hold lock and OTP bits: 0Eh, and 0Fh on Topaz 512.
        func isLockBlock(_ block: Int) -> Bool { block == 0x0E || (self == .topaz512 && block == 0x0F) }
    }
}
