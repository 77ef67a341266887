import ISO7816
import NFCBytes
import NFCTransport

/// The commands of the NFC Forum Type 4 Tag procedures and the answers they expect.
///
/// NFC Forum Type 4 Tag 2.0 (command set: SELECT, READ BINARY, UPDATE BINARY) and T4T 3.0 (READ BINARY `B1` and UPDATE
/// BINARY `D7` with an offset data object `54 03 xxxxxx` for offsets beyond 32 767, the data in
/// a discretionary data object `53`, ISO/IEC 7816-4:2020 §11.3.3 and §11.3.5).
public enum Type4Commands {
    /// `D2760000850101`, the NDEF Tag Application of mapping version 2.0 and later.
    public static let applicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// `D2760000850100`, the NDEF Tag Application of mapping version 1.0.
    public static let version1ApplicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// `E103`, the capability container.
    public static let capabilityContainerID: UInt16 = 0xE103
    /// The largest offset READ/UPDATE BINARY `B0`/`D6` address (15 bits in P1-P2).
    public static let largestShortOffset = 0x7FFF

    /// SELECT of the NDEF Tag Application: P1 `04`, P2 `00` ("first or only occurrence"), Le `00`
    /// (NFC Forum T4T 2.0 §5.4.2, its C-APDU table; ST's SRTAG2K data sheet §5.6.3, Table 21,
    /// prints the same). libnfc's `nfc-emulate-forum-tag4` refuses any other P2, so a reader that
    /// sends `0C` there finds no NDEF on it.
    public static func selectApplication(version1: Bool) -> CommandAPDU {
        .select(aid: version1 ? version1ApplicationIdentifier : applicationIdentifier, returnFCI: true)
    }

    /// SELECT of an EF by identifier: P1 `00`, P2 `0C` (T4T 2.0 command set); P2 `00` under mapping 1.0.
    public static func selectFile(_ id: UInt16, version1: Bool) -> CommandAPDU {
        var command = CommandAPDU.selectFile(id: id)
        if version1 { command.p2 = 0x00 }
        return command
    }

    /// READ BINARY of `count` data bytes at `offset`: `B0` up to offset 7FFF, `B1` with an offset
    /// data object beyond (its Ne counts the `53` header too).
    public static func readBinary(offset: Int, count: Int) -> CommandAPDU {
        guard offset > largestShortOffset else { return .readBinary(offset: offset, length: count) }
        return CommandAPDU(ins: 0xB1, data: offsetObject(offset), expectedLength: count + dataObjectHeaderLength(count))
    }

    /// UPDATE BINARY of `data` at `offset`: `D6` up to offset 7FFF, `D7` with offset and
    /// discretionary data objects beyond.
    public static func updateBinary(offset: Int, data: [UInt8]) -> CommandAPDU {
        guard offset > largestShortOffset else { return .updateBinary(offset: offset, data: data) }
        return CommandAPDU(ins: 0xD7, data: offsetObject(offset) + [0x53] + berLength(data.count) + data)
    }

    /// The command bytes an UPDATE BINARY of `count` data bytes at `offset` adds around them.
    static func updateOverhead(offset: Int, count: Int) -> Int {
        offset > largestShortOffset ? 5 + dataObjectHeaderLength(count) : 0
    }

    /// The data a READ BINARY answer carries: the data field of `B0`, the `53` object's value of `B1`.
    /// - Throws: `.unexpectedResponse` when a `B1` answer is not one well-formed `53` object.
    static func readData(_ response: ResponseAPDU, of command: CommandAPDU) throws(TagEngineError) -> [UInt8] {
        guard command.ins == 0xB1 else { return response.data }
        var reader = ByteReader(response.data)
        do {
            guard try reader.readUInt8() == 0x53 else {
                throw TagEngineError(.unexpectedResponse, "READ BINARY B1 answered a data object other than 53")
            }
            let first = try reader.readUInt8()
            var length = Int(first)
            if first >= 0x80 {
                let count = Int(first & 0x7F)
                guard (1...3).contains(count) else {
                    throw TagEngineError(.unexpectedResponse, "READ BINARY B1 answered a BER length of \(count + 1) bytes")
                }
                length = 0
                for _ in 0..<count { length = length << 8 | Int(try reader.readUInt8()) }
            }
            guard length == reader.remaining else {
                throw TagEngineError(
                    .unexpectedResponse, "READ BINARY B1 answered object 53 of length \(length) with \(reader.remaining) bytes")
            }
            return Array(reader.readRemaining())
        } catch let error as TagEngineError {
            throw error
        } catch {
            throw TagEngineError(.unexpectedResponse, "READ BINARY B1 answered a truncated data object (\(response.data.count) bytes)")
        }
    }

    /// `54 03` and the offset in 3 bytes.
    static func offsetObject(_ offset: Int) -> [UInt8] {
        [0x54, 0x03, UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 8), UInt8(truncatingIfNeeded: offset)]
    }

    /// The BER-TLV length field of `count` (1, 2 or 3 bytes up to 65 535).
    static func berLength(_ count: Int) -> [UInt8] {
        switch count {
        case ..<0x80: [UInt8(truncatingIfNeeded: count)]
        case ..<0x100: [0x81, UInt8(truncatingIfNeeded: count)]
        default: [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        }
    }

    /// Tag `53` plus the length field, for `count` bytes of data.
    static func dataObjectHeaderLength(_ count: Int) -> Int { 1 + berLength(count).count }

    /// The largest `count` whose `53` object fits in `budget` bytes.
    static func dataFitting(_ budget: Int) -> Int {
        var count = budget - 4
        for candidate in [budget - 2, budget - 3] where candidate > 0 && candidate + dataObjectHeaderLength(candidate) <= budget {
            count = max(count, candidate)
        }
        return max(count, 0)
    }
}
