extension EmulatedReaderFront {
    /// GET DATA `FF CA P1 00 Le` (PC/SC Part 3 §3.2.2.1.3).
    ///
    /// P1 `00`: the UID — ISO/IEC 14443 UIDs and FeliCa IDm as the tag sends them, ISO/IEC 15693
    /// UIDs least significant byte first, as on the air (``VirtualTag/identifier`` holds them most
    /// significant byte first). P1 `01`: the historical bytes of the ATS, for ISO/IEC 14443-4
    /// Type A cards only (`6A 81` otherwise). Le `00` asks for all of it; a smaller Le gets
    /// `6C XX` with the exact length, a larger one the data and `62 82`.
    func getData(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.p2 == 0x00 else { return ReaderStatusWord.wrongParameters }
        let data: [UInt8]
        switch command.p1 {
        case 0x00:
            data = uidAsSent
        case 0x01:
            guard case .iso14443A(let a) = tag.parameters, let ats = a.ats else { return ReaderStatusWord.notSupported }
            data = ats.historicalBytes
        default:
            return ReaderStatusWord.wrongParameters
        }
        guard command.data.isEmpty, let ne = command.ne else { return ReaderStatusWord.wrongLength }
        if command.asksForMaximum || ne == data.count { return data + ReaderStatusWord.success }
        if ne < data.count { return ReaderStatusWord.exactLength(data.count) }
        return data + ReaderStatusWord.endReached
    }

    /// The UID in the order the tag sends it (ISO/IEC 15693-3 §7.1: least significant byte first).
    var uidAsSent: [UInt8] {
        if case .iso15693 = tag.parameters { return tag.identifier.reversed() }
        return tag.identifier
    }
}
