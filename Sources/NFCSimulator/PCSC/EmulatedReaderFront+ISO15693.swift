extension EmulatedReaderFront {
    /// Request flags of every request the reader sends: high data rate and addressed
    /// (ISO/IEC 15693-3 §7.3.1, Table 4), so the tag answers in any state, Quiet included.
    static let iso15693Flags: UInt8 = 0x22
    /// The most blocks one Read Multiple Blocks carries (256 bytes of 4-byte blocks).
    static let iso15693BlocksPerRead = 64

    /// What one block read brought back.
    enum BlockRead {
        /// The blocks' bytes (fewer blocks than asked when the tag stopped at its last one).
        case blocks([UInt8])
        /// The first block asked for does not exist, or the range runs past the end.
        case beyondEnd
        /// An error response of another kind, or silence.
        case failed
    }

    /// The tag's block size: 4 bytes on both modelled chips, as most ISO/IEC 15693 tags.
    var iso15693BlockSize: Int { (tag as? ISO15693Tag)?.model.blockSize ?? 4 }

    /// READ BINARY on an ISO/IEC 15693 tag: `FF B0 P1 P2 Le` reads from block `P1P2`.
    ///
    /// Le `00` reads one block with Read Single Block (ISO/IEC 15693-3 §10.4.1); Le = k × block
    /// size reads k blocks with Read Multiple Blocks (§10.4.4), 64 at most per request. Blocks
    /// above 255 need the extended commands of ISO/IEC 15693-3:2019 (`30`, `33`: 16-bit block
    /// numbers, least significant byte first). Memory ending before Le bytes gives the blocks
    /// there are and `62 82`; none at all `6A 82`. Le not a multiple of the block size is `67 00`.
    mutating func iso15693Read(_ command: SimCommandAPDU) -> [UInt8] {
        let blockSize = iso15693BlockSize
        let length = command.asksForMaximum ? blockSize : (command.ne ?? blockSize)
        guard length % blockSize == 0 else { return ReaderStatusWord.wrongLength }
        var remaining = length / blockSize
        var next = Int(command.p1) << 8 | Int(command.p2)
        var data: [UInt8] = []
        var ended = false
        // The ST25DV refuses a whole range that runs past its end: then one block at a time.
        var singles = false
        while remaining > 0 {
            let count = singles ? 1 : min(remaining, Self.iso15693BlocksPerRead)
            switch readBlocks(from: next, count: count) {
            case .blocks(let bytes):
                let got = min(bytes.count / blockSize, count)
                data += bytes.prefix(got * blockSize)
                next += got
                remaining -= got
                if got < count { ended = true }
            case .beyondEnd:
                if count > 1 {
                    singles = true
                    continue
                }
                ended = true
            case .failed:
                reselect()
                return ReaderStatusWord.failed
            }
            if ended { break }
        }
        if data.isEmpty { return ReaderStatusWord.outOfRange }
        return data + (ended ? ReaderStatusWord.endReached : ReaderStatusWord.success)
    }

    /// UPDATE BINARY on an ISO/IEC 15693 tag: `FF D6 P1 P2 Lc data` writes one block with Write
    /// Single Block (ISO/IEC 15693-3 §10.4.2; Extended Write Single Block `31` above block 255).
    /// Lc must be the block size (`67 00`). A block that does not exist is `6A 82`; a tag that
    /// refuses (a locked block) or stays silent `63 00`.
    mutating func iso15693Write(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.data.count == iso15693BlockSize else { return ReaderStatusWord.wrongLength }
        let block = Int(command.p1) << 8 | Int(command.p2)
        let wide = block > 0xFF
        let frame = [Self.iso15693Flags, wide ? 0x31 : 0x21] + uidAsSent + Self.blockNumber(block, wide: wide) + command.data
        switch Self.classify(transmit(frame), wide: wide) {
        case .blocks: return ReaderStatusWord.success
        case .beyondEnd: return ReaderStatusWord.outOfRange
        case .failed:
            reselect()
            return ReaderStatusWord.failed
        }
    }

    /// One Read Single Block (`count` 1) or Read Multiple Blocks request, extended when a block
    /// number is above 255.
    mutating func readBlocks(from first: Int, count: Int) -> BlockRead {
        let last = first + count - 1
        guard count >= 1, last <= 0xFFFF else { return .beyondEnd }
        let wide = last > 0xFF
        var frame: [UInt8] = [Self.iso15693Flags]
        if count == 1 {
            frame.append(wide ? 0x30 : 0x20)
            frame += uidAsSent + Self.blockNumber(first, wide: wide)
        } else {
            frame.append(wide ? 0x33 : 0x23)
            frame += uidAsSent + Self.blockNumber(first, wide: wide) + Self.blockNumber(count - 1, wide: wide)
        }
        return Self.classify(transmit(frame), wide: wide)
    }

    /// A block number (or count − 1): one byte, or two least significant first when `wide`.
    static func blockNumber(_ value: Int, wide: Bool) -> [UInt8] {
        let low = UInt8(truncatingIfNeeded: value)
        return wide ? [low, UInt8(truncatingIfNeeded: value >> 8)] : [low]
    }

    /// Reads a response (ISO/IEC 15693-3 §7.4): flags `00` and the data, or flags with bit 1 set
    /// and an error code of Table 7. Error `10` (block not available) means past the end; so do
    /// "not supported" and "not recognised" (`01`–`03`) to an extended request, from a chip whose
    /// blocks all have 8-bit numbers.
    static func classify(_ answer: TagAnswer, wide: Bool) -> BlockRead {
        guard case .bytes(let bytes) = answer.reply, let flags = bytes.first else { return .failed }
        if flags & 0x01 == 0 { return .blocks(Array(bytes.dropFirst())) }
        guard bytes.count >= 2 else { return .failed }
        switch bytes[1] {
        case 0x10: return .beyondEnd
        case 0x01...0x03 where wide: return .beyondEnd
        default: return .failed
        }
    }
}
