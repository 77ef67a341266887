/// The block numbers of a FeliCa Lite-S (RC-S966).
///
/// FeliCa Lite-S User's Manual §3.2, Table 3-1: S_PAD0–S_PAD13 (`00`–`0D`, user data), REG
/// (`0E`, subtraction register), RC `80`, MAC `81`, ID `82`, D_ID `83`, SER_C `84`, SYS_C `85`,
/// CKV `86`, CK `87`, MC `88`, WCNT `90`, MAC_A `91`, STATE `92`, CRC_CHECK `A0`.
enum FeliCaLiteSBlock {
    static let userBlockCount = 14
    static let register: UInt16 = 0x0E
    static let randomChallenge: UInt16 = 0x80
    static let mac: UInt16 = 0x81
    static let id: UInt16 = 0x82
    static let deviceID: UInt16 = 0x83
    static let serviceCode: UInt16 = 0x84
    static let systemCode: UInt16 = 0x85
    static let cardKeyVersion: UInt16 = 0x86
    static let cardKey: UInt16 = 0x87
    static let memoryConfiguration: UInt16 = 0x88
    static let writeCount: UInt16 = 0x90
    static let macA: UInt16 = 0x91
    static let state: UInt16 = 0x92
    static let crcCheck: UInt16 = 0xA0

    /// Whether a block number exists on the chip.
    static func exists(_ number: UInt16) -> Bool {
        number <= register || (0x80...0x88).contains(number) || (0x90...0x92).contains(number) || number == crcCheck
    }
}

/// A view of the memory configuration block MC (`88`) of a FeliCa Lite-S.
///
/// FeliCa Lite-S User's Manual §3.3.13: bytes 0–1 MC_SP_REG_ALL_RW (bit n = 1: S_PAD n writable,
/// bit 14 REG, bit 15 MC bytes 0–1 and 6–12 writable), byte 2 MC_ALL (`FF`: ID, CKV, CK and MC
/// bytes 2–5 writable; `00`: locked for good), byte 3 SYS_OP (`01`: NDEF, the card answers
/// Polling for system code `12FC`), byte 4 RF_PRM, byte 5 MC_CKCKV_W_MAC_A, bytes 6–7
/// MC_SP_REG_R_RESTR (read needs authentication), bytes 8–9 MC_SP_REG_W_RESTR (write needs
/// authentication), bytes 10–11 MC_SP_REG_W_MAC_A (write needs a MAC), byte 12
/// MC_STATE_W_MAC_A, bytes 13–15 reserved.
struct FeliCaLiteSMemoryConfiguration: Sendable, Hashable {
    var bytes: [UInt8]

    /// The factory value: everything writable, no NDEF, RF_PRM `07`.
    static let factory: [UInt8] = [0xFF, 0xFF, 0xFF, 0x00, 0x07] + [UInt8](repeating: 0, count: 11)

    private func bit(_ index: Int, ofPairAt offset: Int) -> Bool {
        guard (0..<16).contains(index), bytes.count >= offset + 2 else { return false }
        let pair = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        return pair & (1 << UInt16(index)) != 0
    }

    /// Whether S_PAD n (0–13) or REG (14) may be written.
    func userBlockWritable(_ index: Int) -> Bool { bit(index, ofPairAt: 0) }
    /// Whether MC bytes 0–1 and 6–12 may still change (bit 15 of MC_SP_REG_ALL_RW).
    var permissionBitsWritable: Bool { bit(15, ofPairAt: 0) }
    /// Whether the system blocks (ID, CKV, CK) and MC bytes 2–5 may be written (MC_ALL = `FF`).
    var systemBlocksWritable: Bool { bytes.count > 2 && bytes[2] == 0xFF }
    /// Whether the card answers Polling for the NDEF system code `12FC` (SYS_OP = `01`).
    var ndefEnabled: Bool { bytes.count > 3 && bytes[3] == 0x01 }
    /// Whether reading S_PAD n / REG needs mutual authentication first.
    func readRestricted(_ index: Int) -> Bool { bit(index, ofPairAt: 6) }
    /// Whether writing S_PAD n / REG needs mutual authentication first.
    func writeRestricted(_ index: Int) -> Bool { bit(index, ofPairAt: 8) }
    /// Whether writing S_PAD n / REG needs a write with MAC.
    func macRequired(_ index: Int) -> Bool { bit(index, ofPairAt: 10) }

    /// The configuration after a Write Without Encryption of `written` to MC: bytes 0–1 can only
    /// clear bits (writable → read-only) and bytes 6–12 only set bits, both while bit 15 allows;
    /// bytes 2–5 change while MC_ALL is `FF`; bytes 13–15 stay `00`.
    func applyingWrite(_ written: [UInt8]) -> FeliCaLiteSMemoryConfiguration {
        var next = bytes
        let permissions = permissionBitsWritable
        let system = systemBlocksWritable
        for index in 0..<16 where index < written.count && index < next.count {
            switch index {
            case 0...1 where permissions: next[index] &= written[index]
            case 2...5 where system: next[index] = written[index]
            case 6...12 where permissions: next[index] |= written[index]
            case 13...15: next[index] = 0
            default: break
            }
        }
        return FeliCaLiteSMemoryConfiguration(bytes: next)
    }
}
