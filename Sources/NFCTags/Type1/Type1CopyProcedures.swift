import NFCBytes

/// A whole Type 1 tag as read: the header ROM and every block, for `nfc dump -o` and `nfc restore`.
public struct Type1Capture: Sendable, Hashable {
    /// HR0 and HR1 (HR0 `11` a Topaz 96, `12` a Topaz 512; T1TOP §2.1).
    public var headerROM: [UInt8]
    /// Every block, block 00h (UID-0…6 and a reserved byte) first.
    public var memory: [UInt8]

    /// A capture from its parts.
    public init(headerROM: [UInt8], memory: [UInt8]) {
        self.headerROM = headerROM
        self.memory = memory
    }

    /// The 7-byte UID, block 00h's first bytes (UID-0 first, as the tag stores it).
    public var uid: [UInt8] { Array(memory.prefix(7)) }
}

/// Reads every block: RALL, then RSEG or READ8 for the rest of a dynamic memory.
struct Type1CaptureProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        (0..<snapshot.memory.blockCount).filter { !snapshot.memory.knows(block: $0) }
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Type1Capture) {
        var memory: [UInt8] = []
        for block in 0..<snapshot.memory.blockCount {
            guard let bytes = snapshot.memory.block(block) else {
                throw TagEngineError(.unexpectedResponse, "block \(Type1RestoreProcedure.name(block)) was not read")
            }
            memory += bytes
        }
        return ([], Type1Capture(headerROM: snapshot.memory.headerROM, memory: memory))
    }
}

/// Writes a capture's data blocks onto a tag of the same model, tearing-safe.
///
/// The blocks copied are the data blocks: 01h–0Ch, and on a Topaz 512 10h–3Fh. The UID block 00h
/// is the chip's own (ROM), block 0Dh is reserved, 0Eh holds LOCK-0/1 and OTP-0…5 and a Topaz 512's
/// 0Fh LOCK-2…7 and OTP-6/7 (T1TOP §2.2; BCM20203T512 data sheet Table 1): lock and OTP bits are
/// permanent and are not copied. Blocks already equal are skipped; a block that differs and is
/// locked on the target is refused before anything is written.
///
/// The order is the NDEF write procedure's (T1TOP §6.4.2): NMN (byte 08h) is cleared first, so a
/// restore cut short reads as "write in progress" rather than as a mixture; then every other
/// block (block 01h, which holds the CC, byte by byte; a static tag's blocks byte by byte; a
/// dynamic tag's with WRITE-E8); NMN gets the image's value last.
struct Type1RestoreProcedure: Type1Procedure {
    let capture: Type1Capture

    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        (0..<snapshot.memory.blockCount).filter { !snapshot.memory.knows(block: $0) }
    }

    /// The blocks a restore copies on a tag of this layout.
    static func dataBlocks(_ memory: Type1Memory) -> [Int] {
        Array(1...0x0C) + (memory.isTopaz512 ? Array(0x10..<memory.blockCount) : [])
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Int) {
        let memory = snapshot.memory
        guard capture.headerROM.first == memory.headerROM.first, capture.memory.count == memory.size else {
            throw TagEngineError(
                .unsupported,
                "the image is of \(Self.model(capture.headerROM.first, capture.memory.count)); this tag is \(Self.model(memory.headerROM[0], memory.size)): a copy goes onto the same model"
            )
        }
        let image = capture.memory
        let changed = Self.dataBlocks(memory).filter { block in memory.block(block) != Array(image[block * 8..<block * 8 + 8]) }
        if changed.isEmpty { return ([], 0) }
        // NMN (byte 08h) is written whenever anything is, so block 01h's lock counts too.
        for block in [1] + changed where memory.isLocked(block: block) != false {
            throw TagEngineError(.readOnly, "block \(Self.name(block)) differs from the image and is locked on this tag")
        }
        var writes: [Type1Write] = []
        let nmn = memory.byte(at: 8) ?? 0
        // Step 1: NMN 00 first, unless it already is.
        if nmn != 0x00 { writes.append(.byte(8, 0x00, over: nmn)) }
        // Step 2: the other blocks; block 01h's bytes other than NMN byte by byte.
        for block in changed {
            let new = Array(image[block * 8..<block * 8 + 8])
            guard let old = memory.block(block) else { throw TagEngineError(.unexpectedResponse, "block \(Self.name(block)) was not read") }
            if memory.isStatic || block == 1 {
                for offset in 0..<8 where new[offset] != old[offset] && block * 8 + offset != 8 {
                    writes.append(.byte(block * 8 + offset, new[offset], over: old[offset]))
                }
            } else {
                writes.append(.block(block, new, over: old))
            }
        }
        // Step 3: NMN as the image has it.
        if image[8] != 0x00 { writes.append(.byte(8, image[8], over: 0x00)) }
        return (writes, changed.count)
    }

    static func name(_ block: Int) -> String { hex(UInt8(truncatingIfNeeded: block)) + "h" }

    /// A Type 1 chip named from HR0 (T1TOP §2.1; BCM20203T96/T512) and its memory size.
    static func model(_ hr0: UInt8?, _ size: Int) -> String {
        switch hr0 {
        case 0x11: "a Topaz 96 (\(size) bytes)"
        case 0x12: "a Topaz 512 (\(size) bytes)"
        default: "a Type 1 tag with HR0 \(hex(hr0 ?? 0))h (\(size) bytes)"
        }
    }
    static func hex(_ byte: UInt8) -> String { Hex.encode([byte], uppercase: true) }
}
