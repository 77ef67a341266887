/// The memory configuration block MC (block `88`) of a FeliCa Lite or Lite-S, as the engine reads
/// and writes it.
///
/// FeliCa Lite-S User's Manual §3.3.13 (and the FeliCa Lite manual's MC): bytes 0–1
/// MC_SP_REG_ALL_RW, little endian — bit n (0–13) set: S_PAD n writable, bit 14 REG, bit 15 MC
/// bytes 0–1 and 6–12 may still change; a write can only clear these bits. Byte 2 MC_ALL: `FF`
/// the system blocks and MC bytes 2–5 are writable, `00` locked for good. Byte 3 SYS_OP: `01`
/// NDEF — the card answers Polling for `12FC`. Bytes 13–15 reserved (`00`).
struct FeliCaLiteMemoryConfiguration: Sendable, Hashable {
    /// The MC block number.
    static let blockNumber: UInt16 = 0x88
    /// S_PAD0–S_PAD13: the user blocks.
    static let userBlockCount = 14

    /// The 16 bytes as read.
    private(set) var bytes: [UInt8]

    /// - Returns: `nil` unless the block holds 16 bytes.
    init?(_ bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    private var readWriteBits: UInt16 { UInt16(bytes[0]) | UInt16(bytes[1]) << 8 }

    /// Whether S_PAD n may be written.
    func userBlockWritable(_ block: Int) -> Bool {
        (0..<Self.userBlockCount).contains(block) && readWriteBits & (1 << UInt16(block)) != 0
    }

    /// Whether every block in a range of S_PADs may be written.
    func userBlocksWritable(_ blocks: ClosedRange<Int>) -> Bool {
        blocks.allSatisfy(userBlockWritable)
    }

    /// Whether MC bytes 0–1 may still change (bit 15 of MC_SP_REG_ALL_RW).
    var permissionsChangeable: Bool { readWriteBits & 0x8000 != 0 }

    /// Whether the system blocks and MC bytes 2–5 may still change (MC_ALL = `FF`).
    var systemBlocksWritable: Bool { bytes[2] == 0xFF }

    /// Whether SYS_OP enables NDEF (the card answers Polling for `12FC`).
    var ndefEnabled: Bool { bytes[3] == 0x01 }

    /// The data blocks after S_PAD0 that may be written, counted from S_PAD1 up to the first
    /// read-only one: the largest Nmaxb a format can declare.
    var consecutiveWritableDataBlocks: Int {
        var count = 0
        while count + 1 < Self.userBlockCount, userBlockWritable(count + 1) { count += 1 }
        return count
    }

    /// The MC block with SYS_OP = `01`; every other byte as read, so that writing it changes
    /// nothing else (bytes 0–1 only clear bits and 6–12 only set bits on a write).
    var enablingNDEF: [UInt8] {
        var next = bytes
        next[3] = 0x01
        return next
    }

    /// Whether S_PAD0–13 are read-only for good: their bits clear and bytes 0–1 frozen.
    var userBlocksLocked: Bool {
        readWriteBits & 0x3FFF == 0 && !permissionsChangeable
    }

    /// The MC block that makes S_PAD0–13 read-only for good: their bits and bit 15 cleared (REG
    /// keeps its bit, it is not NDEF memory), and MC_ALL `00` so SYS_OP and the system blocks
    /// can no longer change.
    var lockingUserBlocks: [UInt8] {
        var next = bytes
        let bits = readWriteBits & 0x4000
        next[0] = UInt8(bits & 0xFF)
        next[1] = UInt8(bits >> 8)
        next[2] = 0x00
        return next
    }
}
