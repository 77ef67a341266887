import NFCBytes

/// Formats a blank Topaz for NDEF with an empty message (T1TOP §2.2–2.4), from the highest byte
/// down and NMN last: cut short, the tag is still not formatted, or (once the CC bytes 9–11 are
/// in) a complete empty layout with NMN `00`, which the next write completes. Block 01h, which
/// holds the CC, is written byte by byte:
/// - Topaz 96: CC `E1 10 0E 00`, then `03 00 FE` (empty NDEF TLV, Terminator);
/// - Topaz 512: CC `E1 10 3F 00`, the Lock Control TLV `01 03 F2 30 33` (48 lock bits at block
///   0Fh byte 2, 8 bytes per bit, 8-byte pages) and the Memory Control TLV `02 03 F0 02 03` (the 2
///   OTP bytes at block 0Fh byte 0), then `03 00 FE` — the layout Topaz 512 tags ship with.
///
/// Other Type 1 chips are refused (`.unsupported`): their lock and reserved areas are not known.
struct Type1FormatProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] { [] }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Void) {
        let memory = snapshot.memory
        let existing: Type1CapabilityContainer.State?
        do {
            existing = try Type1CapabilityContainer.read(memory).1
        } catch {
            // Only a tag without NDEF is formatted; a CC of another version is not overwritten.
            guard error.code == .notFormatted else { throw error }
            existing = nil
        }
        if let existing {
            let what = existing == .ndef ? "it holds a valid CC" : "it holds a valid CC (a write was interrupted: write a message instead)"
            throw TagEngineError(.alreadyFormatted, "the tag is already formatted: \(what)")
        }
        let tlvs: [UInt8]
        switch memory.headerROM[0] {
        case 0x11: tlvs = [0x03, 0x00, 0xFE]
        case 0x12: tlvs = [0x01, 0x03, 0xF2, 0x30, 0x33, 0x02, 0x03, 0xF0, 0x02, 0x03, 0x03, 0x00, 0xFE]
        default:
            throw TagEngineError(
                .unsupported, "HR0 \(Hex.encode([memory.headerROM[0]], uppercase: true))h: only Topaz 96 and 512 are formatted here")
        }
        let bytes = Type1CapabilityContainer.formatted(memorySize: memory.size) + tlvs
        var target = memory
        target.store(bytes, at: 8)
        let blocks = Set((8..<(8 + bytes.count)).map { $0 / 8 }).sorted()
        for block in blocks where memory.isLocked(block: block) != false {
            throw TagEngineError(.readOnly, "block \(Hex.encode([UInt8(block)], uppercase: true))h, which the CC needs, is locked")
        }
        guard let oldMagic = memory.byte(at: 8) else { throw TagEngineError(.unexpectedResponse, "block 01h was not read") }
        var writes: [Type1Write] = []
        var withoutMagic = target
        withoutMagic.store([oldMagic], at: 8)
        for block in blocks.reversed() {
            if memory.isStatic || block == 1 {
                for address in (block * 8..<block * 8 + 8).reversed() where address > 8 {
                    guard let old = memory.byte(at: address), let new = target.byte(at: address), old != new else { continue }
                    writes.append(.byte(address, new, over: old))
                }
            } else {
                guard let old = memory.block(block), let new = withoutMagic.block(block), old != new else { continue }
                writes.append(.block(block, new, over: old))
            }
        }
        writes.append(.byte(8, 0xE1, over: oldMagic))
        return (writes, ())
    }
}

/// Makes the tag read-only (T1TOP §6.4.3): RWA (byte 11) becomes `0F`, then the lock bits are set
/// with WRITE-NE — LOCK-0/1 for blocks 00h–0Eh (00h–0Fh on the dynamic layout), and every lock
/// bit the Lock Control TLVs describe, in whole blocks with WRITE-NE8 beyond block 0Eh. A tag
/// that is already read-only is left as it is.
struct Type1MakeReadOnlyProcedure: Type1Procedure {
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        switch try snapshot.area() {
        case .needsBlock(let block): return [block]
        case .complete(_, _, let layout):
            let fixed = snapshot.memory.isTopaz512 ? Array(0x7A..<0x80) : []
            return snapshot.unknownBlocks(layout.lockAreas.flatMap { Array($0.byteAddresses) } + fixed)
        }
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Void) {
        guard case .complete(_, let state, let layout) = try snapshot.area() else {
            throw TagEngineError(.unexpectedResponse, "the TLV area was not read")
        }
        guard state == .ndef else {
            throw TagEngineError(.invalidNDEFArea, "write in progress (NMN 00h): write a message before making the tag read-only")
        }
        let memory = snapshot.memory
        var masks: [Int: UInt8] = [11: 0x0F, 0x70: 0xFF, 0x71: memory.isStatic ? 0x7F : 0xFF]
        if memory.isTopaz512 {
            for address in 0x7A..<0x80 { masks[address] = 0xFF }  // LOCK-2…7, fixed in block 0Fh (data sheet Figures 15–17)
        }
        for area in layout.lockAreas {
            for bit in 0..<area.bitCount {
                masks[area.address + bit / 8, default: 0] |= UInt8(1) << UInt8(bit % 8)
            }
        }
        var writes: [Type1Write] = []
        var blockMasks: [Int: [UInt8]] = [:]
        for address in masks.keys.sorted() {
            guard let mask = masks[address], let old = memory.byte(at: address) else { continue }
            guard old | mask != old else { continue }
            if address < 0x78 {
                writes.append(Type1Write(target: .byte(address: address), data: [mask], erase: false, expected: [old | mask]))
            } else {
                blockMasks[address / 8, default: [UInt8](repeating: 0, count: 8)][address % 8] = mask
            }
        }
        for block in blockMasks.keys.sorted() {
            guard let mask = blockMasks[block], let old = memory.block(block) else { continue }
            writes.append(Type1Write(target: .block(block), data: mask, erase: false, expected: zip(old, mask).map { $0 | $1 }))
        }
        return (writes, ())
    }
}
