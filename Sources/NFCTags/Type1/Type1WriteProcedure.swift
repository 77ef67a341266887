import NFCBytes

/// Writes an NDEF message tearing-safe (T1TOP §6.4.2, the NDEF write procedure):
///
/// 1. NMN (byte 8) becomes `00`, so that a reader stops trusting the data area;
/// 2. the NDEF Message TLV and a Terminator TLV, in address order — changed bytes only, with
///    WRITE-E, or WRITE-NE where a byte only gains bits (half the time); on the dynamic layout
///    whole blocks with WRITE-E8/WRITE-NE8, except block 01h, which holds the CC and is written
///    byte by byte (an 8-byte erase-write cut short there could erase the CC);
/// 3. NMN becomes `E1` again, with WRITE-NE (`00` → `E1` only sets bits).
///
/// Cut anywhere, the tag holds the old message, the new one, or NMN `00` ("write in progress"),
/// which the next write repairs. A message equal to the stored one writes nothing. Blocks the
/// message reaches are read first, so bytes around it (reserved areas, the rest of the last
/// block) are kept, and their lock bits checked.
struct Type1WriteProcedure: Type1Procedure {
    let message: [UInt8]

    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int] {
        switch try snapshot.area() {
        case .needsBlock(let block): return [block]
        case .complete(_, _, let layout):
            let addresses = try Self.bodyAddresses(message, layout)
            var blocks = snapshot.unknownBlocks(addresses)
            if addresses.contains(where: { $0 >= 0x80 }) {
                // The lock bits of blocks 10h on: LOCK-2…7 in block 0Fh, or where the TLVs say.
                let lockBytes = snapshot.memory.isTopaz512 ? Array(0x7A..<0x80) : layout.lockAreas.flatMap { Array($0.byteAddresses) }
                blocks += snapshot.unknownBlocks(lockBytes).filter { !blocks.contains($0) }
            }
            return blocks
        }
    }

    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Void) {
        guard case .complete(let cc, let state, let layout) = try snapshot.area() else {
            throw TagEngineError(.unexpectedResponse, "the TLV area was not read")
        }
        guard cc.isWritable else {
            throw TagEngineError(.readOnly, "the CC's RWA (byte 11) is \(Hex.encode([cc.access], uppercase: true))h: no write access")
        }
        let addresses = try Self.bodyAddresses(message, layout)
        let body = Self.body(message, layout)
        var target = snapshot.memory
        for (address, byte) in zip(addresses, body) { target.store([byte], at: address) }
        target.store([0xE1], at: 8)
        let memory = snapshot.memory
        let changed = (addresses + [8]).filter { target.byte(at: $0) != memory.byte(at: $0) }
        if changed.isEmpty { return ([], ()) }
        for block in Set(changed.map { $0 / 8 }).sorted() where snapshot.isLocked(block: block, layout: layout) != false {
            throw TagEngineError(.readOnly, "block \(Hex.encode([UInt8(block)], uppercase: true))h, which the message needs, is locked")
        }
        var writes: [Type1Write] = []
        // Step 1: NMN 00, unless it already is (an interrupted write).
        if state == .ndef { writes.append(.byte(8, 0x00, over: 0xE1)) }
        // Step 2: the data. Block 01h, which holds the CC, only ever byte by byte: an 8-byte
        // erase-write cut short there could erase the CC along with NMN.
        for block in Set(changed.filter { $0 != 8 }.map { $0 / 8 }).sorted() {
            if memory.isStatic || block == 1 {
                for address in changed where address != 8 && address / 8 == block {
                    guard let old = memory.byte(at: address), let new = target.byte(at: address) else { continue }
                    writes.append(.byte(address, new, over: old))
                }
            } else {
                guard let old = memory.block(block), let new = target.block(block) else {
                    throw TagEngineError(.unexpectedResponse, "block \(block) was not read")
                }
                writes.append(.block(block, new, over: old))
            }
        }
        // Step 3: NMN E1.
        writes.append(.byte(8, 0xE1, over: 0x00))
        return (writes, ())
    }

    /// The NDEF Message TLV for the message, then a Terminator TLV when a byte is left for it.
    static func body(_ message: [UInt8], _ layout: TLVAreaLayout) -> [UInt8] {
        let body = TLVAreaLayout.header(length: message.count) + message
        return layout.usableCount(from: layout.ndefStart) > body.count ? body + [0xFE] : body
    }

    /// The addresses the body goes to, from where the NDEF TLV starts.
    /// - Throws: `.capacityExceeded` when the message does not fit the data area.
    static func bodyAddresses(_ message: [UInt8], _ layout: TLVAreaLayout) throws(TagEngineError) -> [Int] {
        guard message.count <= layout.capacity else {
            throw TagEngineError(.capacityExceeded, "the message has \(message.count) bytes; the tag holds \(layout.capacity)")
        }
        let count = body(message, layout).count
        return layout.addresses(from: layout.ndefStart, count: count)
    }
}
