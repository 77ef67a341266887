extension Type2Tag {
    /// The chip a ``Type2Tag`` models: its memory map, version bytes and command set.
    ///
    /// NTAG213/215/216: NXP NTAG213/215/216 product data sheet Rev. 3.2, §8.5 (memory
    /// organization) and §10 (commands). MIFARE Ultralight EV1: NXP MF0ULX1 Rev. 3.x, “Memory
    /// organization” and “MIFARE Ultralight EV1 commands”.
    public enum Model: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// NTAG213: 45 pages, 144 bytes of user memory.
        case ntag213
        /// NTAG215: 135 pages, 504 bytes of user memory.
        case ntag215
        /// NTAG216: 231 pages, 888 bytes of user memory.
        case ntag216
        /// MIFARE Ultralight EV1 MF0UL11: 20 pages, 48 bytes of user memory.
        case ultralightEV1MF0UL11
        /// MIFARE Ultralight EV1 MF0UL21: 41 pages, 128 bytes of user memory.
        case ultralightEV1MF0UL21

        /// The product name, e.g. `NTAG213` or `MIFARE Ultralight EV1 MF0UL21`.
        public var description: String {
            switch self {
            case .ntag213: "NTAG213"
            case .ntag215: "NTAG215"
            case .ntag216: "NTAG216"
            case .ultralightEV1MF0UL11: "MIFARE Ultralight EV1 MF0UL11"
            case .ultralightEV1MF0UL21: "MIFARE Ultralight EV1 MF0UL21"
            }
        }

        /// Whether the chip is an NTAG21x (otherwise a MIFARE Ultralight EV1).
        public var isNTAG: Bool {
            switch self {
            case .ntag213, .ntag215, .ntag216: true
            case .ultralightEV1MF0UL11, .ultralightEV1MF0UL21: false
            }
        }

        /// Pages of 4 bytes, from page 00h to the PACK page.
        public var pageCount: Int {
            switch self {
            case .ntag213: 45
            case .ntag215: 135
            case .ntag216: 231
            case .ultralightEV1MF0UL11: 20
            case .ultralightEV1MF0UL21: 41
            }
        }

        /// Bytes in the whole memory.
        public var memorySize: Int { pageCount * 4 }

        /// The first page of user memory (04h on every model).
        public var firstUserPage: Int { 4 }

        /// The last page of user memory (NTAG213 27h, NTAG215 81h, NTAG216 E1h, MF0UL11 0Fh, MF0UL21 23h).
        public var lastUserPage: Int {
            dynamicLockPage.map { $0 - 1 } ?? configurationPage0 - 1
        }

        /// Bytes of user memory (144, 504, 888, 48, 128).
        public var userMemorySize: Int { (lastUserPage - firstUserPage + 1) * 4 }

        /// The page of the dynamic lock bytes (NTAG213 28h, NTAG215 82h, NTAG216 E2h, MF0UL21 24h);
        /// MF0UL11 has none.
        public var dynamicLockPage: Int? {
            self == .ultralightEV1MF0UL11 ? nil : pageCount - 5
        }

        /// CFG0: MIRROR (NTAG) or MOD (EV1), RFUI, MIRROR_PAGE (NTAG) or RFUI, AUTH0.
        public var configurationPage0: Int { pageCount - 4 }
        /// CFG1: ACCESS, RFUI (EV1: VCTID), RFUI, RFUI.
        public var configurationPage1: Int { pageCount - 3 }
        /// The 32-bit password; reads back as zeros.
        public var passwordPage: Int { pageCount - 2 }
        /// PACK (2 bytes) and 2 RFUI bytes; reads back as zeros.
        public var packPage: Int { pageCount - 1 }

        /// The 8 bytes GET_VERSION answers (NTAG21x §10.1; MF0ULX1 “GET_VERSION”).
        public var versionBytes: [UInt8] {
            switch self {
            case .ntag213: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]
            case .ntag215: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
            case .ntag216: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]
            case .ultralightEV1MF0UL11: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03]
            case .ultralightEV1MF0UL21: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03]
            }
        }

        /// The capability container of an NDEF-formatted chip (NFC Forum Type 2 Tag §6.1): version
        /// 1.0, the data area size in 8-byte units (NTAG21x as shipped: 12h, 3Eh, 6Dh; for EV1 the
        /// user memory over 8), read/write access.
        public var formattedCapabilityContainer: [UInt8] {
            let size: UInt8 =
                switch self {
                case .ntag213: 0x12
                case .ntag215: 0x3E
                case .ntag216: 0x6D
                case .ultralightEV1MF0UL11: 0x06
                case .ultralightEV1MF0UL21: 0x10
                }
            return [0xE1, 0x10, size, 0x00]
        }

        /// Whether NXP ships the chip NDEF-formatted (NTAG21x: CC and an empty NDEF TLV written;
        /// Ultralight EV1: page 3 is a blank OTP page).
        public var shipsFormatted: Bool { isNTAG }

        /// Pages one dynamic lock bit locks (NTAG213 and MF0UL21: 2; NTAG215 and NTAG216: 16).
        var dynamicLockGranularity: Int {
            switch self {
            case .ntag213, .ultralightEV1MF0UL21, .ultralightEV1MF0UL11: 2
            case .ntag215, .ntag216: 16
            }
        }

        /// Dynamic lock bits in use (NTAG213 12, NTAG215 8, NTAG216 14, MF0UL21 10, MF0UL11 0).
        var dynamicLockBitCount: Int {
            guard dynamicLockPage != nil else { return 0 }
            let pages = lastUserPage - 16 + 1
            return (pages + dynamicLockGranularity - 1) / dynamicLockGranularity
        }

        /// Dynamic block-locking bits in use, each freezing two lock bits (6, 4, 7, 5, 0).
        var dynamicBlockLockBitCount: Int { (dynamicLockBitCount + 1) / 2 }

        /// One-way counters: NTAG21x has the NFC counter (READ_CNT address 02h), EV1 three.
        public var counterCount: Int { isNTAG ? 1 : 3 }

        /// CFG0 as shipped: NTAG21x `04 00 00 FF` (STRG_MOD_EN set, no mirror, AUTH0 FFh), EV1
        /// `00 00 00 FF`.
        var factoryConfiguration0: [UInt8] { [isNTAG ? 0x04 : 0x00, 0x00, 0x00, 0xFF] }
        /// CFG1 as shipped: ACCESS 00h, then 05h (EV1: VCTID), 00h, 00h.
        var factoryConfiguration1: [UInt8] { [0x00, 0x05, 0x00, 0x00] }
        /// A byte that belongs to the model in default UIDs.
        var uidTag: UInt8 {
            switch self {
            case .ntag213: 0x13
            case .ntag215: 0x15
            case .ntag216: 0x16
            case .ultralightEV1MF0UL11: 0x11
            case .ultralightEV1MF0UL21: 0x21
            }
        }
    }
}
