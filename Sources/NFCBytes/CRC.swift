/// The 16-bit CRCs of the contactless air interfaces.
///
/// All three are the reflected CCITT polynomial x¹⁶ + x¹² + x⁵ + 1 (0x8408 bit-reversed), which
/// differ in their preset and final complement. Each is sent least significant byte first.
public enum CRC16: Sendable {
    /// CRC_A of ISO/IEC 14443-3 §6.2.4 / Annex B: preset 0x6363, not complemented.
    case crcA
    /// CRC_B of ISO/IEC 14443-3 §7.2 / Annex B: preset 0xFFFF, ones' complement at the end.
    case crcB
    /// The CRC of ISO/IEC 15693-3 §6.1 / Annex C (identical to CRC_B, CRC-16/X-25).
    case iso15693

    private static let table: [UInt16] = (0...255).map { i -> UInt16 in
        var crc = UInt16(i)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x8408 : crc >> 1 }
        return crc
    }

    private var preset: UInt16 { self == .crcA ? 0x6363 : 0xFFFF }
    private var complemented: Bool { self != .crcA }

    /// The CRC of `bytes` as a 16-bit value (its low byte is sent first).
    public func checksum<S: Sequence>(_ bytes: S) -> UInt16 where S.Element == UInt8 {
        var crc = preset
        let table = Self.table
        for b in bytes {
            crc = (crc >> 8) ^ table[Int((crc ^ UInt16(b)) & 0xFF)]
        }
        return complemented ? ~crc : crc
    }

    /// The two CRC bytes in transmission order (low byte first).
    public func bytes<S: Sequence>(_ data: S) -> [UInt8] where S.Element == UInt8 {
        let crc = checksum(data)
        return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
    }

    /// Appends the CRC to a frame.
    public func appending(to frame: [UInt8]) -> [UInt8] {
        frame + bytes(frame)
    }

    /// Whether a frame ends with a correct CRC over the bytes before it.
    public func isValid(frame: some Collection<UInt8>) -> Bool {
        guard frame.count >= 2 else { return false }
        let body = frame.dropLast(2)
        return Array(frame.suffix(2)) == bytes(body)
    }
}
