import NFCBytes

/// The 8 bytes a Type 2 chip answers to GET_VERSION (60h).
///
/// Fixed header 00h, vendor (04h: NXP), product type (03h: MIFARE Ultralight, 04h: NTAG), product
/// subtype, major and minor product version, storage size and protocol type (03h: ISO/IEC 14443-3).
/// NTAG213/215/216 data sheet §10.1; MF0ULX1 (MIFARE Ultralight EV1) “GET_VERSION”.
public struct Type2Version: Sendable, Hashable, CustomStringConvertible {
    /// The bytes as received.
    public let bytes: [UInt8]

    /// Parses an answer to GET_VERSION.
    /// - Returns: `nil` unless the answer has exactly 8 bytes.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 8 else { return nil }
        self.bytes = bytes
    }

    /// The vendor ID (04h: NXP Semiconductors).
    public var vendor: UInt8 { bytes[1] }
    /// The product type (03h: MIFARE Ultralight, 04h: NTAG).
    public var productType: UInt8 { bytes[2] }
    /// The product subtype (01h: 17 pF, 02h: 50 pF).
    public var productSubtype: UInt8 { bytes[3] }
    /// The major product version.
    public var majorVersion: UInt8 { bytes[4] }
    /// The minor product version.
    public var minorVersion: UInt8 { bytes[5] }
    /// The storage size byte: bits 7–1 give n, the user memory is 2ⁿ bytes, or between 2ⁿ and
    /// 2ⁿ⁺¹ bytes when bit 0 is set.
    public var storageSize: UInt8 { bytes[6] }
    /// The protocol type (03h: ISO/IEC 14443-3 compliant).
    public var protocolType: UInt8 { bytes[7] }

    /// Whether the chip is an NXP NTAG or MIFARE Ultralight EV1 family member: the chips that
    /// answer GET_VERSION also know FAST_READ, READ_SIG and PWD_AUTH.
    public var isNXPType2Family: Bool { vendor == 0x04 && (productType == 0x03 || productType == 0x04) }

    /// The user memory range the storage size byte gives, in bytes.
    public var userMemoryRange: ClosedRange<Int> {
        let exponent = Int(storageSize >> 1)
        guard exponent < 24 else { return 0...0 }
        let low = 1 << exponent
        return storageSize & 0x01 == 0 ? low...low : low...(2 * low)
    }

    /// The 8 bytes in uppercase hex (`0004040201001303`).
    public var description: String { Hex.encode(bytes, uppercase: true) }
}
