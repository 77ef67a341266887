import NFCBytes

/// The capability container of a Type 1 tag: block 01h bytes 0–3 (memory bytes 8–11).
///
/// T1TOP §2.2 and §6.3 (NDEF detection): NMN, the NDEF magic number `E1`; VNo, the mapping
/// version (major in the high nibble, 1 supported); TMS, the memory size as 8 × (TMS + 1) bytes
/// (`0E` for the static layout); RWA, read/write access (`00` read/write, `0F` read-only, other
/// values reserved and treated as no write access). The NDEF write procedure (§6.4.2) sets NMN
/// to `00` before it writes and back to `E1` after: a CC that is valid but for NMN `00` is a
/// write that was interrupted.
struct Type1CapabilityContainer: Sendable, Hashable {
    var magic: UInt8
    var version: UInt8
    var sizeCode: UInt8
    var access: UInt8

    /// What the CC says about NDEF.
    enum State: Sendable, Hashable {
        /// NMN `E1`: the data area holds NDEF.
        case ndef
        /// NMN `00` with an otherwise valid CC: a write in progress (or interrupted).
        case writeInProgress
    }

    /// Reads and checks the CC bytes of a tag whose first blocks are known.
    /// - Throws: `.notFormatted` when NMN is neither `E1` nor (with a valid CC) `00`;
    ///   `.invalidCapabilityContainer` naming the byte for a version or size the tag cannot have.
    static func read(_ memory: Type1Memory) throws(TagEngineError) -> (Type1CapabilityContainer, State) {
        guard let b8 = memory.byte(at: 8), let b9 = memory.byte(at: 9), let b10 = memory.byte(at: 10), let b11 = memory.byte(at: 11)
        else { throw TagEngineError(.unexpectedResponse, "block 01h, which holds the CC, was not read") }
        let cc = Type1CapabilityContainer(magic: b8, version: b9, sizeCode: b10, access: b11)
        guard b8 == 0xE1 || (b8 == 0x00 && b9 >> 4 == 1 && b10 >= 0x0E) else {
            throw TagEngineError(
                .notFormatted, "no NDEF: the NDEF magic number (byte 8) is \(Hex.encode([b8], uppercase: true))h, not E1h (T1TOP §2.2)")
        }
        guard b9 >> 4 == 1 else {
            throw TagEngineError(
                .invalidCapabilityContainer, "CC byte 9 (version) is \(b9 >> 4).\(b9 & 0x0F); this reader maps version 1.x (T1TOP §2.2)")
        }
        guard memory.isStatic ? b10 == 0x0E : (b10 >= 0x0E && cc.memorySize <= memory.size) else {
            throw TagEngineError(
                .invalidCapabilityContainer,
                "CC byte 10 (TMS) is \(Hex.encode([b10], uppercase: true))h: \(cc.memorySize) bytes, but the tag has \(memory.size) (T1TOP §2.2)"
            )
        }
        return (cc, b8 == 0xE1 ? .ndef : .writeInProgress)
    }

    /// The memory size the CC declares, 8 × (TMS + 1) bytes.
    var memorySize: Int { 8 * (Int(sizeCode) + 1) }

    /// Whether RWA grants write access (`00`).
    var isWritable: Bool { access == 0x00 }

    /// The CC a formatted tag of `memorySize` bytes carries, NMN included.
    static func formatted(memorySize: Int) -> [UInt8] {
        [0xE1, 0x10, UInt8(truncatingIfNeeded: memorySize / 8 - 1), 0x00]
    }
}

/// What a procedure knows of a Type 1 tag once the memory it asked for is read.
struct Type1Snapshot: Sendable, Hashable {
    var memory: Type1Memory
    /// The UID echo the commands carry.
    var uid: [UInt8]

    /// The bytes the data area never uses, whatever the TLVs say: blocks 0Dh (reserved) and
    /// 0Eh (LOCK-0/1, OTP-0…5), and on a Topaz 512 block 0Fh (OTP-6/7, LOCK-2…7) — T1TOP §2.2,
    /// BCM20203T512 data sheet Table 1.
    var reserved: Set<Int> {
        var bytes = Set(0x68..<0x78)
        if memory.isTopaz512 { bytes.formUnion(0x78..<0x80) }
        return bytes
    }

    /// The CC and the TLV layout, or the block the TLV walk still needs.
    enum Area: Sendable, Hashable {
        case complete(Type1CapabilityContainer, Type1CapabilityContainer.State, TLVAreaLayout)
        case needsBlock(Int)
    }

    /// Reads the CC and walks the TLVs from byte 12 (T1TOP §6.3). While a write is in progress
    /// the walk stops at the NDEF TLV's type byte: its length may be half written.
    /// - Throws: what ``Type1CapabilityContainer/read(_:)`` and ``TLVAreaScanner`` throw.
    func area() throws(TagEngineError) -> Area {
        let (cc, state) = try Type1CapabilityContainer.read(memory)
        let end = min(cc.memorySize, memory.size)
        switch try TLVAreaScanner.scan(
            memory, dataAreaStart: 12, dataAreaEnd: end, reserved: reserved, addressableBytes: memory.size,
            stopAtNDEF: state == .writeInProgress)
        {
        case .complete(let layout): return .complete(cc, state, layout)
        case .needsByte(let address): return .needsBlock(address / 8)
        }
    }

    /// Whether a block is locked: LOCK-0/1 for blocks 00h–0Fh; beyond, the fixed LOCK-2…7 of a
    /// Topaz 512, or else the bits the Lock Control TLVs describe, each locking its 2ⁿ bytes from
    /// byte 80h on (T1TOP §2.2.2, §2.3.2). `nil` when the lock byte is not known.
    func isLocked(block: Int, layout: TLVAreaLayout) -> Bool? {
        if block < 16 || memory.isTopaz512 { return memory.isLocked(block: block) }
        var bit = 0
        for area in layout.lockAreas {
            for index in 0..<area.bitCount {
                let first = 0x80 + (bit + index) * area.bytesPerBit
                guard (first..<first + area.bytesPerBit).overlaps(block * 8..<block * 8 + 8) else { continue }
                guard let byte = memory.byte(at: area.address + index / 8) else { return nil }
                if byte >> UInt8(index % 8) & 1 == 1 { return true }
            }
            bit += area.bitCount
        }
        return false
    }

    /// Blocks holding the given addresses that are not known yet, in order.
    func unknownBlocks(_ addresses: some Sequence<Int>) -> [Int] {
        Array(Set(addresses.map { $0 / 8 }).filter { !memory.knows(block: $0) }).sorted()
    }
}
