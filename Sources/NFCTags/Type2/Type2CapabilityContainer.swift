import NFCBytes

/// The capability container (CC) of an NDEF-formatted Type 2 tag: page 3, one-time programmable.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §2.1.3 and §6.1.1: byte 0 the NDEF magic number E1h, byte
/// 1 the mapping version (major in the high nibble, only major 1 is understood), byte 2 the data area
/// size ÷ 8, byte 3 the access conditions (read in the high nibble, write in the low: 0h granted, Fh no
/// write access, other values RFU or proprietary, read here as “no access”).
public struct Type2CapabilityContainer: Sendable, Hashable, CustomStringConvertible {
    /// The 4 bytes of page 3.
    public let bytes: [UInt8]

    /// The NDEF magic number in CC byte 0.
    public static let magic: UInt8 = 0xE1
    /// The highest mapping major version this engine reads.
    public static let supportedMajorVersion: UInt8 = 1

    /// What page 3 holds.
    enum Reading: Sendable, Hashable {
        /// A usable CC.
        case valid(Type2CapabilityContainer)
        /// All zeros: a blank tag, formattable.
        case blank
        /// No magic number: not NDEF-formatted.
        case noMagic([UInt8])
        /// A magic number with values out of range.
        case invalid(String)
    }

    /// Parses page 3, checking the values against the memory the tag has.
    ///
    /// - Parameters:
    ///   - bytes: page 3.
    ///   - userMemorySize: the model's user memory (from page 4 on), when known; the data area may not
    ///     exceed it. Without it the data area must still end within the 256 pages READ can address.
    static func parse(_ bytes: [UInt8], userMemorySize: Int?) -> Reading {
        guard bytes.count == 4 else { return .invalid("page 3 has \(bytes.count) bytes") }
        if bytes == [0, 0, 0, 0] { return .blank }
        guard bytes[0] == magic else { return .noMagic(bytes) }
        let cc = Type2CapabilityContainer(bytes: bytes)
        guard cc.majorVersion == supportedMajorVersion else {
            return .invalid("CC byte 1 is mapping version \(cc.majorVersion).\(cc.minorVersion); only 1.x is supported")
        }
        guard cc.dataAreaSize > 0 else { return .invalid("CC byte 2 declares a data area of 0 bytes") }
        if let userMemorySize, cc.dataAreaSize > userMemorySize {
            return .invalid("CC byte 2 declares \(cc.dataAreaSize) B of data area, the chip has \(userMemorySize) B of user memory")
        }
        guard cc.dataAreaEnd <= 256 * 4 else {
            return .invalid("CC byte 2 declares \(cc.dataAreaSize) B of data area, beyond the 256 pages READ addresses")
        }
        return .valid(cc)
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The mapping major version (1).
    public var majorVersion: UInt8 { bytes[1] >> 4 }
    /// The mapping minor version.
    public var minorVersion: UInt8 { bytes[1] & 0x0F }
    /// The data area size in bytes (CC byte 2 × 8), from byte 16 (page 4) on.
    public var dataAreaSize: Int { Int(bytes[2]) * 8 }
    /// The read access nibble (0h: granted).
    public var readAccess: UInt8 { bytes[3] >> 4 }
    /// The write access nibble (0h: granted, Fh: none).
    public var writeAccess: UInt8 { bytes[3] & 0x0F }
    /// Whether the CC grants reading.
    public var grantsRead: Bool { readAccess == 0 }
    /// Whether the CC grants writing.
    public var grantsWrite: Bool { writeAccess == 0 }

    /// The first byte address after the data area.
    var dataAreaEnd: Int { 16 + dataAreaSize }

    /// The CC a chip gets when formatted: version 1.0, its data area, read/write.
    static func formatted(size: UInt8) -> [UInt8] { [magic, 0x10, size, 0x00] }

    /// The CC bytes in uppercase hex (`E1106D00`).
    public var description: String { Hex.encode(bytes, uppercase: true) }
}
