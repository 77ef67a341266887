/// Finds PN532 frames in the bytes of a serial line, as they arrive (UM0701-02 §6.2.1).
///
/// Bytes before a start code (`00 FF`) are skipped: preambles, postambles and the HSU wake-up
/// `55 55 00 00 …` (§6.2.2, "HSU wake up condition"). A frame whose length or data checksum is
/// wrong is reported as an error and skipped; decoding then looks for the next start code, as
/// the PN532 itself does. A frame not yet complete waits for more bytes; its prefix is kept, up
/// to one frame's worth.
package struct PN532FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Stream offset of `buffer[0]`, for messages.
    private var offset = 0

    /// A decoder with nothing buffered.
    package init() {}

    /// Takes the next bytes of the stream and returns every frame (or frame error) they complete, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Result<PN532Frame, PN532FrameError>] {
        buffer.append(contentsOf: bytes)
        var results: [Result<PN532Frame, PN532FrameError>] = []
        while let result = next() { results.append(result) }
        return results
    }

    /// The index of the first start code's `00`, or nil.
    private func startIndex() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for index in 0..<(buffer.count - 1) where buffer[index] == 0x00 && buffer[index + 1] == 0xFF { return index }
        return nil
    }

    /// Drops `count` bytes from the front.
    private mutating func drop(_ count: Int) {
        buffer.removeFirst(count)
        offset += count
    }

    /// The next complete frame or error, or nil when more bytes are needed.
    private mutating func next() -> Result<PN532Frame, PN532FrameError>? {
        guard let start = startIndex() else {
            // Keep a trailing 00: it may be the first half of a start code.
            let keep = buffer.last == 0x00 ? 1 : 0
            drop(buffer.count - keep)
            return nil
        }
        drop(start)
        let at = offset
        // buffer: 00 FF LEN LCS …
        guard buffer.count >= 4 else { return nil }
        let length = buffer[2]
        let check = buffer[3]
        if length == 0x00, check == 0xFF {
            drop(4)
            return .success(.ack)
        }
        if length == 0xFF, check == 0x00 {
            drop(4)
            return .success(.nack)
        }
        var header = 4
        var bodyLength = Int(length)
        if length == 0xFF, check == 0xFF {
            guard buffer.count >= 7 else { return nil }
            let (high, low, lcs) = (buffer[4], buffer[5], buffer[6])
            guard high &+ low &+ lcs == 0 else {
                drop(2)
                return .failure(PN532FrameError(.lengthChecksum, "extended frame at byte \(at): LENM \(high) LENL \(low) LCS \(lcs)"))
            }
            header = 7
            bodyLength = Int(high) << 8 | Int(low)
        } else if length &+ check != 0 {
            drop(2)
            return .failure(PN532FrameError(.lengthChecksum, "frame at byte \(at): LEN \(length) LCS \(check)"))
        }
        guard bodyLength >= 1, bodyLength <= PN532Frame.maximumLength else {
            drop(2)
            return .failure(
                PN532FrameError(.badLength, "frame at byte \(at): \(bodyLength) bytes (1 to \(PN532Frame.maximumLength) allowed)"))
        }
        guard buffer.count >= header + bodyLength + 1 else { return nil }
        let body = Array(buffer[header..<(header + bodyLength)])
        let dcs = buffer[header + bodyLength]
        guard body.reduce(dcs, &+) == 0 else {
            drop(2)
            return .failure(PN532FrameError(.dataChecksum, "frame at byte \(at): \(bodyLength) bytes, DCS \(dcs)"))
        }
        drop(header + bodyLength + 1)
        if body == [0x7F] { return .success(.syntaxError) }
        return .success(.information(tfi: body[0], data: Array(body.dropFirst())))
    }
}
