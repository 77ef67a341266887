/// Data followed by a check value (a CRC) and zero padding to whole cipher blocks, as DESFire's
/// EV1 and legacy secure messaging encipher it (`data ‖ CRC ‖ 00…`): the data back out. Data of
/// a length nothing else gives (SetConfiguration's ATS) marks its end with `80` after the check
/// value (`data ‖ CRC ‖ 80 00…`), as libfreefare's `mifare_desfire_set_ats` and proxmark3's
/// `DesfireSetConfiguration` send it.
public enum CheckedPadding {
    /// The data before a check value that `check` computes over it, followed only by zero padding
    /// of less than `blockSize` bytes; `nil` when none fits.
    ///
    /// With `length` (which a command's header or the request says) the split is checked there:
    /// a CRC without final inversion cannot tell it alone — whenever its last byte is zero, data ‖
    /// CRC minus that byte checks as well (the CRC of data ‖ CRC[0..<n-1] is CRC[n-1] followed by
    /// zeros). Without it, ends are tried from the shortest, from the last non-zero byte up. With
    /// `endMarker` the padding is `80` then zeros, at most `blockSize` bytes, and the check value
    /// ends before the `80`.
    public static func strip(
        _ plain: [UInt8], blockSize: Int, length: Int? = nil, endMarker: Bool = false, check: ([UInt8]) -> [UInt8]
    ) -> [UInt8]? {
        let size = check([]).count
        if endMarker {
            guard let marker = plain.lastIndex(where: { $0 != 0 }), plain[marker] == 0x80, plain.count - marker <= blockSize,
                marker >= size
            else { return nil }
            let body = Array(plain[..<(marker - size)])
            if let length, body.count != length { return nil }
            return Array(plain[(marker - size)..<marker]) == check(body) ? body : nil
        }
        if let length {
            guard length >= 0, length + size <= plain.count, plain.count - (length + size) < blockSize,
                plain[(length + size)...].allSatisfy({ $0 == 0 })
            else { return nil }
            let body = Array(plain[..<length])
            return Array(plain[length..<length + size]) == check(body) ? body : nil
        }
        let lastNonZero = plain.lastIndex { $0 != 0 } ?? -1
        var end = max(lastNonZero + 1, size, plain.count - blockSize + 1)
        while end <= plain.count {
            let body = Array(plain[..<(end - size)])
            if Array(plain[(end - size)..<end]) == check(body) { return body }
            end += 1
        }
        return nil
    }
}
