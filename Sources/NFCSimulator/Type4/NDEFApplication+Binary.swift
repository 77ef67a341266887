/// READ BINARY and UPDATE BINARY on the current EF (ISO/IEC 7816-4:2013 data unit handling;
/// NFC Forum Type 4 Tag Operation 2.0 §5.4.4, §5.4.6, §5.4.7; T4T 3.0 for the offset-data-object forms).
extension NDEFApplication {
    /// READ BINARY `B0`: offset in P1-P2 (15 bits), Le bytes from there.
    ///
    /// Errors: no current EF `6986`; P1 bit 8 (short EF addressing, not supported) `6A86`; a data
    /// field or no Le `6700`; read access never `6982`; offset at or beyond the end `6B00`.
    /// Fewer bytes than Ne are returned with `9000` when the file ends first or Ne exceeds
    /// ``maxReadLength``.
    mutating func readBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let index = currentFile, files.indices.contains(index) else { return SimResponseAPDU(.noCurrentEF) }
        guard command.p1 & 0x80 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.isEmpty, let ne = command.ne else { return SimResponseAPDU(.wrongLength) }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        return read(fileAt: index, offset: offset, limit: ne) { $0 }
    }

    /// READ BINARY `B1`: P1-P2 `0000`, data `54 03` + a 3-byte offset; the answer is `53` + BER
    /// length + data, the whole within Ne and ``maxReadLength``.
    ///
    /// Errors as for `B0`, plus P1-P2 other than `0000` `6A86` and a malformed offset object `6A80`.
    mutating func readBinaryWithOffsetObject(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let index = currentFile, files.indices.contains(index) else { return SimResponseAPDU(.noCurrentEF) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard let ne = command.ne else { return SimResponseAPDU(.wrongLength) }
        let fields = command.data
        guard fields.count == 5, fields[0] == 0x54, fields[1] == 0x03 else { return SimResponseAPDU(.incorrectData) }
        let offset = Int(fields[2]) << 16 | Int(fields[3]) << 8 | Int(fields[4])
        // The DDO header counts against the limit: find the largest data length that fits.
        let budget = min(ne, maxReadLength)
        var count = max(budget - 4, 0)
        for candidate in [budget - 2, budget - 3, budget - 4] where candidate > 0 {
            if candidate + Self.berHeaderLength(candidate) <= budget {
                count = candidate
                break
            }
        }
        guard count > 0 else { return SimResponseAPDU(.wrongLength) }
        return read(fileAt: index, offset: offset, limit: count) { data in
            [0x53] + Self.berLength(data.count) + data
        }
    }

    /// UPDATE BINARY `D6`: offset in P1-P2 (15 bits), the data written there.
    ///
    /// Errors: no current EF `6986`; P1 bit 8 `6A86`; no data or more than ``maxUpdateLength``
    /// `6700`; write access never `6982`; offset at or beyond the end `6B00`; data running past
    /// the end `6A84`.
    mutating func updateBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let index = currentFile, files.indices.contains(index) else { return SimResponseAPDU(.noCurrentEF) }
        guard command.p1 & 0x80 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard !command.data.isEmpty, command.data.count <= maxUpdateLength else { return SimResponseAPDU(.wrongLength) }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        return write(command.data, fileAt: index, offset: offset)
    }

    /// UPDATE BINARY `D7`: P1-P2 `0000`, data `54 03` + 3-byte offset + `53` + BER length + data.
    ///
    /// Errors as for `D6`, plus P1-P2 other than `0000` `6A86` and malformed data objects `6A80`.
    mutating func updateBinaryWithOffsetObject(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard let index = currentFile, files.indices.contains(index) else { return SimResponseAPDU(.noCurrentEF) }
        guard command.p1 == 0, command.p2 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard !command.data.isEmpty, command.data.count <= maxUpdateLength else { return SimResponseAPDU(.wrongLength) }
        let fields = command.data
        guard fields.count >= 7, fields[0] == 0x54, fields[1] == 0x03, fields[5] == 0x53 else {
            return SimResponseAPDU(.incorrectData)
        }
        let offset = Int(fields[2]) << 16 | Int(fields[3]) << 8 | Int(fields[4])
        guard let (length, headerLength) = Self.parseBERLength(fields[6...]),
            fields.count == 6 + headerLength + length, length > 0
        else { return SimResponseAPDU(.incorrectData) }
        return write(Array(fields[(6 + headerLength)...]), fileAt: index, offset: offset)
    }

    // MARK: Shared

    private func read(fileAt index: Int, offset: Int, limit: Int, wrap: ([UInt8]) -> [UInt8]) -> SimResponseAPDU {
        let file = files[index]
        guard file.readAccess == .always else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        guard offset < file.contents.count else { return SimResponseAPDU(.wrongParameters) }
        let count = max(0, min(limit, maxReadLength, file.contents.count - offset))
        return SimResponseAPDU(data: wrap(Array(file.contents[offset..<(offset + count)])))
    }

    private mutating func write(_ data: [UInt8], fileAt index: Int, offset: Int) -> SimResponseAPDU {
        let file = files[index]
        guard file.writeAccess == .always else { return SimResponseAPDU(.securityStatusNotSatisfied) }
        guard offset < file.contents.count else { return SimResponseAPDU(.wrongParameters) }
        guard data.count <= file.contents.count - offset else { return SimResponseAPDU(.notEnoughMemory) }
        files[index].contents.replaceSubrange(offset..<(offset + data.count), with: data)
        return SimResponseAPDU(
            additionalProcessingTime: Self.programmingTime(offset: offset, count: data.count), writesMemory: true
        )
    }

    /// The BER-TLV length field for `count` (ISO/IEC 7816-4:2013 BER-TLV): 1, 2 (`81`) or 3 (`82`) bytes.
    static func berLength(_ count: Int) -> [UInt8] {
        switch count {
        case ..<0x80: [UInt8(truncatingIfNeeded: count)]
        case ..<0x100: [0x81, UInt8(truncatingIfNeeded: count)]
        default: [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        }
    }

    /// Tag byte plus length field for a DDO of `count` data bytes.
    static func berHeaderLength(_ count: Int) -> Int { 1 + berLength(count).count }

    /// Reads a BER-TLV length field: the length and how many bytes the field took.
    static func parseBERLength(_ bytes: ArraySlice<UInt8>) -> (Int, Int)? {
        guard let first = bytes.first else { return nil }
        if first < 0x80 { return (Int(first), 1) }
        let count = Int(first & 0x7F)
        guard (1...3).contains(count), bytes.count > count else { return nil }
        var value = 0
        for byte in bytes.dropFirst().prefix(count) { value = value << 8 | Int(byte) }
        return (value, 1 + count)
    }
}
