import NFCTransport

/// The class-`FF` commands a contactless reader answers itself (PC/SC Part 3 §3.2.2.1).
enum PseudoAPDU {
    /// GET DATA, P1 = 00: the UID (IDm for FeliCa) (§3.2.2.1.3).
    static let getUID: [UInt8] = [0xFF, 0xCA, 0x00, 0x00, 0x00]
    /// GET DATA, P1 = 01: the historical bytes of the ATS (ISO/IEC 14443-4 A only).
    static let getATSHistoricalBytes: [UInt8] = [0xFF, 0xCA, 0x01, 0x00, 0x00]

    /// READ BINARY of `length` bytes (0 = the reader's natural unit) at block `address` (§3.2.2.1.8).
    static func readBinary(address: Int, length: Int) -> [UInt8] {
        [0xFF, 0xB0, UInt8(truncatingIfNeeded: address >> 8) & 0x7F, UInt8(truncatingIfNeeded: address), UInt8(truncatingIfNeeded: length)]
    }

    /// UPDATE BINARY of one block or page at `address` (§3.2.2.1.9).
    static func updateBinary(address: Int, data: [UInt8]) -> [UInt8] {
        [
            0xFF, 0xD6, UInt8(truncatingIfNeeded: address >> 8) & 0x7F, UInt8(truncatingIfNeeded: address),
            UInt8(truncatingIfNeeded: data.count),
        ] + data
    }

    /// Manage Session: start a transparent session (data object `81`).
    static let startTransparentSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00, 0x00]
    /// Manage Session: end the transparent session (data object `82`).
    static let endTransparentSession: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00, 0x00]

    /// Transparent Exchange: transceive `frame` (data object `95`) with a time limit (`5F46`,
    /// microseconds, least significant byte first). `nil` when the frame does not fit a short APDU.
    static func transceive(_ frame: [UInt8], timeout: Duration) -> [UInt8]? {
        let microseconds = UInt32(clamping: timeout.components.seconds * 1_000_000 + timeout.components.attoseconds / 1_000_000_000_000)
        var data: [UInt8] = [
            0x5F, 0x46, 0x04,
            UInt8(truncatingIfNeeded: microseconds), UInt8(truncatingIfNeeded: microseconds >> 8),
            UInt8(truncatingIfNeeded: microseconds >> 16), UInt8(truncatingIfNeeded: microseconds >> 24),
        ]
        if frame.count < 0x80 {
            data += [0x95, UInt8(frame.count)]
        } else {
            data += [0x95, 0x81, UInt8(truncatingIfNeeded: frame.count)]
        }
        data += frame
        guard data.count <= 255 else { return nil }
        return [0xFF, 0xC2, 0x00, 0x01, UInt8(data.count)] + data + [0x00]
    }

    /// Splits an answer into data and status word.
    static func split(_ answer: [UInt8], doing: String) throws(TransportError) -> (data: [UInt8], sw: UInt16) {
        guard answer.count >= 2 else {
            throw TransportError(.protocolViolation, "\(doing): the reader answered \(answer.count) byte(s), no status word")
        }
        let sw = UInt16(answer[answer.count - 2]) << 8 | UInt16(answer[answer.count - 1])
        return (Array(answer.dropLast(2)), sw)
    }
}
