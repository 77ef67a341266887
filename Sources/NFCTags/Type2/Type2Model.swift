/// A Type 2 chip the engine knows the memory map of, identified by GET_VERSION.
///
/// NTAG213/215/216 data sheet Rev. 3.2 §8.5 (memory organization), §8.8 (configuration pages);
/// MF0ULX1 (MIFARE Ultralight EV1) “Memory organization”. Page numbers are 4-byte pages.
public enum Type2Model: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NXP NTAG213: 144 bytes of user memory.
    case ntag213
    /// NXP NTAG215: 504 bytes of user memory.
    case ntag215
    /// NXP NTAG216: 888 bytes of user memory.
    case ntag216
    /// MIFARE Ultralight EV1 with 48 bytes of user memory.
    case ultralightEV1MF0UL11
    /// MIFARE Ultralight EV1 with 128 bytes of user memory.
    case ultralightEV1MF0UL21

    /// The model GET_VERSION names: NXP (04h), major version 01h, and product type 04h (NTAG,
    /// subtype 02h) with storage size 0Fh, 11h, 13h, or product type 03h (Ultralight, subtype 01h
    /// or 02h) with 0Bh, 0Eh; `nil` for any other chip (NTAG I2C shares NTAG216's storage size but
    /// has subtype 05h and another configuration area).
    public init?(version: Type2Version) {
        guard version.vendor == 0x04, version.majorVersion == 0x01 else { return nil }
        switch (version.productType, version.productSubtype, version.storageSize) {
        case (0x04, 0x02, 0x0F): self = .ntag213
        case (0x04, 0x02, 0x11): self = .ntag215
        case (0x04, 0x02, 0x13): self = .ntag216
        case (0x03, 0x01...0x02, 0x0B): self = .ultralightEV1MF0UL11
        case (0x03, 0x01...0x02, 0x0E): self = .ultralightEV1MF0UL21
        default: return nil
        }
    }

    /// The model's name as NXP writes it (`NTAG216`, `MIFARE Ultralight EV1 (MF0UL21)`).
    public var description: String {
        switch self {
        case .ntag213: "NTAG213"
        case .ntag215: "NTAG215"
        case .ntag216: "NTAG216"
        case .ultralightEV1MF0UL11: "MIFARE Ultralight EV1 (MF0UL11)"
        case .ultralightEV1MF0UL21: "MIFARE Ultralight EV1 (MF0UL21)"
        }
    }

    /// Whether the chip is an NTAG21x (otherwise an Ultralight EV1).
    public var isNTAG: Bool {
        switch self {
        case .ntag213, .ntag215, .ntag216: true
        case .ultralightEV1MF0UL11, .ultralightEV1MF0UL21: false
        }
    }

    /// Pages from 00h to the PACK page (45, 135, 231, 20, 41).
    public var pageCount: Int {
        switch self {
        case .ntag213: 45
        case .ntag215: 135
        case .ntag216: 231
        case .ultralightEV1MF0UL11: 20
        case .ultralightEV1MF0UL21: 41
        }
    }

    /// The whole memory in bytes.
    public var memorySize: Int { pageCount * 4 }

    /// The last user page (27h, 81h, E1h, 0Fh, 23h); user memory starts at page 04h.
    public var lastUserPage: Int { (dynamicLockPage ?? configurationPage0) - 1 }

    /// User memory in bytes (144, 504, 888, 48, 128).
    public var userMemorySize: Int { (lastUserPage - 3) * 4 }

    /// The page holding the dynamic lock bytes (28h, 82h, E2h, none, 24h).
    public var dynamicLockPage: Int? { self == .ultralightEV1MF0UL11 ? nil : pageCount - 5 }

    /// CFG0: mirror/mode byte, RFUI, MIRROR_PAGE, AUTH0.
    public var configurationPage0: Int { pageCount - 4 }
    /// CFG1: ACCESS (PROT, CFGLCK, AUTHLIM…), then RFUI/VCTID bytes.
    public var configurationPage1: Int { pageCount - 3 }
    /// PWD, the 32-bit password (write only).
    public var passwordPage: Int { pageCount - 2 }
    /// PACK (2 bytes) and 2 RFUI bytes (write only).
    public var packPage: Int { pageCount - 1 }

    /// The CC size byte NXP writes for NDEF (data area ÷ 8): 12h, 3Eh, 6Dh, 06h, 10h.
    public var capabilityContainerSize: UInt8 {
        switch self {
        case .ntag213: 0x12
        case .ntag215: 0x3E
        case .ntag216: 0x6D
        case .ultralightEV1MF0UL11: 0x06
        case .ultralightEV1MF0UL21: 0x10
        }
    }

    /// Pages one dynamic lock bit locks, from page 10h (2 on NTAG213 and MF0UL21, 16 on NTAG215/216).
    var pagesPerDynamicLockBit: Int {
        switch self {
        case .ntag215, .ntag216: 16
        case .ntag213, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21: 2
        }
    }

    /// The dynamic lock bits in use (12, 8, 14, 0, 10), in lock bytes 0–1, least significant first.
    var dynamicLockBitCount: Int {
        guard dynamicLockPage != nil else { return 0 }
        return (lastUserPage - 16 + pagesPerDynamicLockBit) / pagesPerDynamicLockBit
    }

    /// The block-locking bits in use in dynamic lock byte 2, each freezing two lock bits.
    var dynamicBlockLockBitCount: Int { (dynamicLockBitCount + 1) / 2 }
}
