/// The tearing-safe order of page writes that replaces the NDEF message of a Type 2 tag.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.3 (NDEF write procedure): the NDEF TLV's length is
/// first set to 0, the message is written, and the length is written last. Every WRITE programs one
/// page atomically, so an interruption at any command leaves the old message (before the first write),
/// an empty NDEF TLV (in between) or the new message (after the last). In detail:
/// 1. the page holding the first length byte gets 00h (and, where no NDEF TLV was, the page holding the
///    type byte gets 03h, after the length so the type never meets a stale length);
/// 2. every other page whose bytes change, in address order: the message, the rest of a 3-byte length,
///    the Terminator TLV (FEh, written after the message when the data area has room);
/// 3. the page holding the first length byte, with the real length.
///
/// Pages that already hold the wanted bytes are not written; when only that length page changes, it is
/// written alone. Bytes of lock and reserved areas are stepped over and kept as read.
enum Type2WritePlanner {
    /// The writes that store `message`.
    /// - Throws: `capacityExceeded` when the message with its TLV header does not fit;
    ///   `unexpectedResponse` when a touched page was not read first.
    static func writes(for message: [UInt8], layout: TLVAreaLayout, memory: Type2Memory) throws(TagEngineError) -> [Type2PageWrite] {
        let body = TLVAreaLayout.header(length: message.count) + message
        let room = layout.usableCount(from: layout.ndefStart)
        guard message.count <= layout.capacity, body.count <= room else {
            throw TagEngineError(
                .capacityExceeded,
                "a \(message.count)-byte message needs \(body.count) bytes with its TLV header; the data area has \(room) from byte \(layout.ndefStart)"
            )
        }
        let stream = body.count < room ? body + [0xFE] : body
        let addresses = layout.addresses(from: layout.ndefStart, count: stream.count)
        guard addresses.count == stream.count, addresses.count >= 2 else {
            throw TagEngineError(.capacityExceeded, "the data area ends before the message does")
        }
        let typeAddress = addresses[0]
        let lengthAddress = addresses[1]
        var touched = Set(addresses.map { $0 / 4 })
        if let ndef = layout.ndef { touched.formUnion(ndef.lengthAddresses.map { $0 / 4 }) }

        var current: [Int: [UInt8]] = [:]
        for page in touched {
            guard let bytes = memory.page(page) else {
                throw TagEngineError(.unexpectedResponse, "page \(Type2Command.hex(page)) was not read before writing")
            }
            current[page] = bytes
        }
        var target = current
        for (address, byte) in zip(addresses, stream) { target[address / 4]?[address % 4] = byte }

        let lengthPage = lengthAddress / 4
        let changed = touched.filter { target[$0] != current[$0] }.sorted()
        if changed.isEmpty { return [] }
        if changed == [lengthPage], let bytes = target[lengthPage] { return [Type2PageWrite(page: lengthPage, bytes: bytes)] }

        var writes: [Type2PageWrite] = []
        var working = current
        // 1. Invalidate: length 0 first, then the type byte if there was no NDEF TLV.
        var emptied = working
        emptied[lengthPage]?[lengthAddress % 4] = 0x00
        emptied[typeAddress / 4]?[typeAddress % 4] = 0x03
        for page in [lengthPage, typeAddress / 4] where emptied[page] != working[page] {
            guard let bytes = emptied[page] else { continue }
            writes.append(Type2PageWrite(page: page, bytes: bytes))
            working[page] = bytes
        }
        // 2. Everything else that changes, in address order.
        for page in changed where page != lengthPage && target[page] != working[page] {
            guard let bytes = target[page] else { continue }
            writes.append(Type2PageWrite(page: page, bytes: bytes))
            working[page] = bytes
        }
        // 3. The length, last.
        if target[lengthPage] != working[lengthPage], let bytes = target[lengthPage] {
            writes.append(Type2PageWrite(page: lengthPage, bytes: bytes))
        }
        return writes
    }
}
