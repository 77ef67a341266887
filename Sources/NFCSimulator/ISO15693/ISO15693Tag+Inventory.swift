extension ISO15693Tag {
    /// The UID as a 64-bit number, bit 0 being the first bit sent.
    var uidValue: UInt64 {
        wireUID.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// Whether the tag's AFI matches a requested one (ISO/IEC 15693-3:2009, AFI coding):
    /// 0x00 matches every tag; X0 every tag of family X; any other value only itself.
    func afiMatches(_ requested: UInt8) -> Bool {
        if requested == 0 { return true }
        if requested & 0x0F == 0 { return afi & 0xF0 == requested }
        return afi == requested
    }

    /// Answers Inventory (ISO/IEC 15693-3:2009 §10.3.1 and the anticollision of §8).
    ///
    /// Request: flags, 0x01, [AFI when the AFI flag is set], mask length in bits, mask value
    /// (⌈length/8⌉ bytes, least significant first, compared with the UID's low bits). Response:
    /// flags 0x00, DSFID, UID least significant byte first. Every error is silent: a quiet tag, a
    /// different AFI or mask, a mask longer than 64 bits (60 with 16 slots), a short or long frame.
    ///
    /// With 16 slots the tag answers in the slot numbered by the 4 UID bits after the mask; the
    /// reader opens slots 1–15 with an EOF each, so the answer carries the frames of all 16 slots.
    mutating func inventory(_ frame: [UInt8], flags: ISO15693RequestFlags) -> TagAnswer {
        guard state != .quiet else { return .mute }
        var reader = ISO15693ParameterReader(frame.dropFirst(2))
        if flags.contains(.afi) {
            guard let requested = reader.byte(), afiMatches(requested) else { return .mute }
        }
        let oneSlot = flags.contains(.oneSlot)
        guard let lengthByte = reader.byte() else { return .mute }
        let length = Int(lengthByte)
        guard length <= (oneSlot ? 64 : 60) else { return .mute }
        guard let maskBytes = reader.bytes((length + 7) / 8), reader.isAtEnd else { return .mute }
        let mask = maskBytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        let bits: UInt64 = length == 64 ? .max : (UInt64(1) << UInt64(length)) - 1
        guard uidValue & bits == mask & bits else { return .mute }

        let response = [0x00, dsfid] + wireUID
        if oneSlot {
            return answer(response, flags: flags, requestLength: frame.count)
        }
        let slot = Int((uidValue >> UInt64(length)) & 0x0F)
        let highRate = flags.contains(.highDataRate)
        let eof = Duration.nanoseconds(37_760)
        let frames = (0..<16).map { number in
            AirFrame(
                reader: number == 0 ? .bytes(frame.count) : .none,
                tag: number == slot ? Self.tagFrame(response.count, highRate: highRate, fast: false) : .none,
                processing: number == 0 ? .zero : eof
            )
        }
        return TagAnswer(.bytes(response), frames: frames)
    }
}
