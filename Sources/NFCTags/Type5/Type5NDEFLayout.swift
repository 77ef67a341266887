/// Where the NDEF message TLV sits in a Type 5 tag's data area, or where one would be written.
///
/// NFC Forum T5T 1.0 §4.4: the data area after the CC holds TLV blocks — NULL `00` (one byte),
/// NDEF message `03`, proprietary `FD`, terminator `FE` — whose length is one byte (`00`–`FE`) or
/// `FF` and two bytes, most significant first.
struct Type5NDEFLayout: Sendable, Hashable {
    /// Offset of the NDEF TLV's type byte (from the start of block 0), or where one would go.
    var tlvOffset: Int
    /// Whether an NDEF message TLV is there.
    var hasNDEFTLV: Bool
    /// 2 or 4 for an NDEF TLV; 0 without one.
    var headerLength: Int
    /// The message length the TLV declares (0 without one).
    var messageLength: Int
    /// The offset just past the data area.
    var areaEnd: Int

    /// The first byte of the message.
    var valueOffset: Int { tlvOffset + headerLength }
    /// The byte holding the TLV's (first) length byte: the one a tearing-safe write sets last.
    var lengthOffset: Int { tlvOffset + 1 }
    /// The largest message an NDEF TLV at ``tlvOffset`` can hold.
    var capacity: Int { Self.capacity(from: tlvOffset, to: areaEnd) }

    /// The largest message an NDEF TLV starting at `offset` can hold before `end`: with the
    /// 3-byte length form when that leaves 255 bytes or more, else with the 1-byte form (≤ 254).
    static func capacity(from offset: Int, to end: Int) -> Int {
        let long = end - offset - 4
        if long >= 0xFF { return min(long, 0xFFFE) }
        return max(0, min(end - offset - 2, 0xFE))
    }

    /// The NDEF TLV's type and length bytes for a message of `length` bytes.
    static func header(forMessageLength length: Int) -> [UInt8] {
        length < 0xFF ? [0x03, UInt8(length)] : [0x03, 0xFF, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
}

/// Walks the TLV blocks of a data area held in a prefix of the tag's memory.
enum Type5TLVScan {
    static let nullTLV: UInt8 = 0x00
    static let ndefTLV: UInt8 = 0x03
    static let proprietaryTLV: UInt8 = 0xFD
    static let terminatorTLV: UInt8 = 0xFE

    /// What the walk needs next.
    enum Step: Sendable, Hashable {
        /// The memory from block 0 must reach this byte offset (exclusive) to continue.
        case need(upTo: Int)
        /// The NDEF TLV, or the place for one: after the last TLV before the terminator or the end.
        case located(Type5NDEFLayout)
    }

    /// Walks from the end of the CC.
    ///
    /// - Parameters:
    ///   - memory: the tag's bytes from offset 0 (block 0), as far as read.
    ///   - cc: the capability container.
    /// - Throws: `.invalidNDEFArea` naming the TLV, its offset and the area end it overruns.
    static func scan(_ memory: [UInt8], cc: Type5CapabilityContainer) throws(TagEngineError) -> Step {
        let end = cc.areaEnd
        var offset = cc.length
        var free = offset  // just past the last TLV that is not NULL padding
        while offset < end {
            guard offset < memory.count else { return .need(upTo: offset + 1) }
            let type = memory[offset]
            if type == nullTLV {
                offset += 1
                continue
            }
            if type == terminatorTLV { break }
            guard offset + 2 <= end else {
                throw TagEngineError(.invalidNDEFArea, "\(name(type)) TLV at offset \(offset) is cut by the end of the data area at \(end)")
            }
            guard offset + 2 <= memory.count else { return .need(upTo: offset + 2) }
            var length = Int(memory[offset + 1])
            var header = 2
            if length == 0xFF {
                guard offset + 4 <= end else {
                    throw TagEngineError(
                        .invalidNDEFArea,
                        "\(name(type)) TLV at offset \(offset): its 3-byte length is cut by the end of the data area at \(end)")
                }
                guard offset + 4 <= memory.count else { return .need(upTo: offset + 4) }
                length = Int(memory[offset + 2]) << 8 | Int(memory[offset + 3])
                header = 4
            }
            guard offset + header + length <= end else {
                throw TagEngineError(
                    .invalidNDEFArea,
                    "\(name(type)) TLV at offset \(offset) declares \(length) bytes, past the end of the data area at \(end)")
            }
            if type == ndefTLV {
                return .located(
                    Type5NDEFLayout(tlvOffset: offset, hasNDEFTLV: true, headerLength: header, messageLength: length, areaEnd: end))
            }
            offset += header + length
            free = offset
        }
        return .located(Type5NDEFLayout(tlvOffset: free, hasNDEFTLV: false, headerLength: 0, messageLength: 0, areaEnd: end))
    }

    private static func name(_ type: UInt8) -> String {
        switch type {
        case ndefTLV: "NDEF message"
        case proprietaryTLV: "proprietary"
        default: "reserved (type 0x\(String(type, radix: 16, uppercase: true)))"
        }
    }
}
