/// The block writes that replace the NDEF message, in a tearing-safe order (T5T 1.0 §7.5.3).
///
/// 1. If the NDEF TLV's length byte is not 0 and more than one block changes, the block holding
///    it is written first with the length byte set to 0: from then on the tag holds an empty NDEF.
/// 2. Every other changed block, with its final bytes: the TLV type, a 3-byte length's last two
///    bytes, the message and a terminator TLV `FE` when room is left. The length byte stays 0, so
///    an interruption leaves an empty NDEF, never a message that reads as valid.
/// 3. The block holding the length byte, last: one Write Single Block, which the tag completes or
///    not, turns the empty NDEF into the new message.
///
/// Blocks that already hold the wanted bytes are not written; when a single block changes, its one
/// write takes the tag from the old message to the new.
struct Type5WritePlan: Sendable, Hashable {
    /// The writes, in order.
    var writes: [(block: Int, bytes: [UInt8])]

    static func == (lhs: Type5WritePlan, rhs: Type5WritePlan) -> Bool {
        lhs.writes.map(\.block) == rhs.writes.map(\.block) && lhs.writes.map(\.bytes) == rhs.writes.map(\.bytes)
    }

    func hash(into hasher: inout Hasher) {
        for write in writes {
            hasher.combine(write.block)
            hasher.combine(write.bytes)
        }
    }

    /// The bytes a new message occupies from the NDEF TLV's offset: the TLV and, when the data
    /// area has room after it, the terminator TLV.
    static func image(of message: [UInt8], layout: Type5NDEFLayout) -> [UInt8] {
        var image = Type5NDEFLayout.header(forMessageLength: message.count) + message
        if layout.tlvOffset + image.count < layout.areaEnd { image.append(Type5TLVScan.terminatorTLV) }
        return image
    }

    /// Plans the writes.
    ///
    /// - Parameters:
    ///   - message: the encoded NDEF message (at most `layout.capacity` bytes).
    ///   - layout: where the NDEF TLV goes.
    ///   - memory: the tag's bytes from block 0, reaching at least the last block the new TLV touches.
    ///   - blockSize: bytes per block.
    /// - Throws: `.unexpectedResponse` when `memory` does not reach that block (a bug, not the tag's).
    init(message: [UInt8], layout: Type5NDEFLayout, memory: [UInt8], blockSize: Int) throws(TagEngineError) {
        guard blockSize > 0 else { throw TagEngineError(.unexpectedResponse, "Type 5 write: block size unknown") }
        let image = Self.image(of: message, layout: layout)
        let start = layout.tlvOffset
        let firstBlock = start / blockSize
        let lastBlock = (start + image.count - 1) / blockSize
        guard memory.count >= (lastBlock + 1) * blockSize else {
            throw TagEngineError(.unexpectedResponse, "Type 5 write: blocks \(firstBlock)–\(lastBlock) were not read before planning")
        }
        var target = Array(memory[(firstBlock * blockSize)..<((lastBlock + 1) * blockSize)])
        let base = firstBlock * blockSize
        for (index, byte) in image.enumerated() { target[start - base + index] = byte }

        func old(_ block: Int) -> [UInt8] { Array(memory[(block * blockSize)..<((block + 1) * blockSize)]) }
        func new(_ block: Int) -> [UInt8] { Array(target[((block - firstBlock) * blockSize)..<((block - firstBlock + 1) * blockSize)]) }

        let lengthBlock = layout.lengthOffset / blockSize
        let changed = (firstBlock...lastBlock).filter { old($0) != new($0) }
        var writes: [(block: Int, bytes: [UInt8])] = []
        var interim: [UInt8]?
        // One changed block is one atomic write from the old message to the new: no interim needed.
        if memory[layout.lengthOffset] != 0, changed.count > 1, changed.contains(where: { $0 != lengthBlock }) {
            var bytes = old(lengthBlock)
            bytes[layout.lengthOffset % blockSize] = 0
            interim = bytes
            writes.append((lengthBlock, bytes))
        }
        for block in changed where block != lengthBlock {
            writes.append((block, new(block)))
        }
        if let interim {
            if interim != new(lengthBlock) { writes.append((lengthBlock, new(lengthBlock))) }
        } else if changed.contains(lengthBlock) {
            writes.append((lengthBlock, new(lengthBlock)))
        }
        self.writes = writes
    }
}
