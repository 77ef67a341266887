extension EmulatedReaderFront {
    /// Bytes one Type 2 READ returns: four pages (NFC Forum Type 2 Tag §5.1).
    static let type2ReadLength = 16

    /// READ BINARY on a Type 2 tag: `FF B0 00 page Le` becomes READ `30 page` (NFC Forum T2T
    /// §5.1), whose 16 bytes are cut to Le (Le `00` = all 16; more than 16 is `67 00`). Pages
    /// are 8-bit: P1 other than `00` is `6A 82`. A NAK or silence is `63 00`.
    mutating func type2Read(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        let length = command.asksForMaximum ? Self.type2ReadLength : (command.ne ?? Self.type2ReadLength)
        guard length <= Self.type2ReadLength else { return ReaderStatusWord.wrongLength }
        let answer = transmit([0x30, command.p2])
        guard case .bytes(let data) = answer.reply else {
            reselect()
            return ReaderStatusWord.failed
        }
        guard data.count >= length else { return data + ReaderStatusWord.endReached }
        return Array(data.prefix(length)) + ReaderStatusWord.success
    }

    /// UPDATE BINARY on a Type 2 tag: `FF D6 00 page 04 data` becomes WRITE `A2 page data`
    /// (NFC Forum T2T §5.2). Exactly one page of 4 bytes (`67 00` otherwise); P1 other than `00`
    /// is `6A 82`. The ACK is `90 00`; a NAK or silence `63 00`.
    mutating func type2Write(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        guard command.data.count == 4 else { return ReaderStatusWord.wrongLength }
        let answer = transmit([0xA2, command.p2] + command.data)
        guard answer.reply == .ack else {
            reselect()
            return ReaderStatusWord.failed
        }
        return ReaderStatusWord.success
    }
}
