/// One BER-TLV data object of a Manage Session or Transparent Exchange command or response
/// (PC/SC Part 3 §3.2.2.1.8 and §3.2.2.1.9; ISO/IEC 7816-4 §5.2 for the encoding).
///
/// Tags are one byte, or two when the first has all five low bits set (`5F 46`, `FF 6E`); lengths
/// are one byte below 128, else `81 L` or `82 LL LL`.
struct PCSCDataObject: Hashable, Sendable {
    var tag: UInt16
    var value: [UInt8]

    init(tag: UInt16, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// The encoded object.
    var bytes: [UInt8] {
        var out: [UInt8] =
            tag > 0xFF ? [UInt8(truncatingIfNeeded: tag >> 8), UInt8(truncatingIfNeeded: tag)] : [UInt8(truncatingIfNeeded: tag)]
        let count = value.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else if count <= 0xFF {
            out += [0x81, UInt8(count)]
        } else {
            let clamped = min(count, 0xFFFF)
            out += [0x82, UInt8(truncatingIfNeeded: clamped >> 8), UInt8(truncatingIfNeeded: clamped)]
        }
        return out + value.prefix(0xFFFF)
    }

    /// Splits a data field into its objects; `nil` when a tag or length runs past the end or a
    /// length uses a form this reader does not read (more than two length bytes).
    static func parse(_ bytes: [UInt8]) -> [PCSCDataObject]? {
        var objects: [PCSCDataObject] = []
        var index = 0
        while index < bytes.count {
            var tag = UInt16(bytes[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < bytes.count else { return nil }
                tag = tag << 8 | UInt16(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
            let first = bytes[index]
            index += 1
            var length = 0
            switch first {
            case 0x00...0x7F:
                length = Int(first)
            case 0x81:
                guard index < bytes.count else { return nil }
                length = Int(bytes[index])
                index += 1
            case 0x82:
                guard index + 1 < bytes.count else { return nil }
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            default:
                return nil
            }
            guard length <= bytes.count - index else { return nil }
            objects.append(PCSCDataObject(tag: tag, value: Array(bytes[index..<(index + length)])))
            index += length
        }
        return objects
    }
}

/// The data object tags of PC/SC Part 3 §3.2.2.1.8–9 this reader knows.
enum PCSCDataObjectTag {
    /// Manage Session: version data object.
    static let version: UInt16 = 0x80
    /// Manage Session: start a transparent session.
    static let startSession: UInt16 = 0x81
    /// Manage Session: end the transparent session.
    static let endSession: UInt16 = 0x82
    /// Manage Session: turn the RF field off.
    static let rfOff: UInt16 = 0x83
    /// Manage Session: turn the RF field on.
    static let rfOn: UInt16 = 0x84
    /// Timer: a 4-byte timeout in µs, least significant byte first.
    static let timer: UInt16 = 0x5F46
    /// Transparent Exchange: receive bit framing (valid bits in the last byte).
    static let receiveBitFraming: UInt16 = 0x92
    /// Transparent Exchange: transceive a frame.
    static let transceive: UInt16 = 0x95
    /// Transparent Exchange: response status.
    static let responseStatus: UInt16 = 0x96
    /// Transparent Exchange: the card's response frame.
    static let responseData: UInt16 = 0x97
    /// Generic error status: number of the bad data object, SW1, SW2.
    static let genericErrorStatus: UInt16 = 0xC0
}
