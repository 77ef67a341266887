import NFCSimulator
import NFCTransport

/// Request builders and helpers shared by the ISO/IEC 15693 suites.
///
/// Frames are spelled out byte by byte from ISO/IEC 15693-3 (flags, command code, [IC
/// manufacturer code], [UID least significant byte first], parameters); these helpers only add
/// the UID where a test is about addressing.
enum ISO15693TestSupport {
    /// Flags: high data rate (0x02).
    static let plain: UInt8 = 0x02
    /// Flags: high data rate + address (0x22).
    static let addressed: UInt8 = 0x22
    /// Flags: high data rate + select (0x12).
    static let selected: UInt8 = 0x12
    /// Flags: high data rate + option (0x42).
    static let option: UInt8 = 0x42

    /// The SLIX2 sample UID in wire order.
    static let slix2Wire: [UInt8] = ISO15693Tag.Model.icodeSLIX2.sampleUID.reversed()
    /// The ST25DV16K sample UID in wire order.
    static let st25Wire: [UInt8] = ISO15693Tag.Model.st25dv16k.sampleUID.reversed()

    /// Microseconds in a duration.
    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    /// The ISO/IEC 15693 exchange formula of AIRTIME.md, in µs, for request and response payloads
    /// of so many bytes (CRC added here) and a processing time.
    static func exchangeMicroseconds(request: Int, response: Int, processing: Double = 0) -> Double {
        let fc = 13.56
        return 113.28 + 302.08 * Double(request + 2) + 4352 / fc + processing
            + 302.08 + 302.08 * Double(response + 2) + 4192 / fc
    }

    /// A single block of 4 bytes filled with a value.
    static func block(_ value: UInt8) -> [UInt8] { [value, value, value, value] }
}

extension ISO15693Tag {
    /// Sends a frame straight to the struct (no field) and returns the bytes of the answer, or
    /// `nil` when the tag stays silent.
    mutating func exchange(_ frame: [UInt8]) -> [UInt8]? {
        respond(to: frame, context: ExchangeContext()).transceivedBytes
    }
}
