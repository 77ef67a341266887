/// FeliCa command codes (FeliCa Card User's Manual Excerpted Edition v2.0 §4.4; JIS X 6319-4),
/// shared by the Type 3 tag engine and Core NFC's `NFCFeliCaTag` (the simulator keeps its own
/// reading). Each response code is the command code plus one.
package enum FeliCaCommandCode {
    /// Polling (`00`).
    package static let polling: UInt8 = 0x00
    /// Request Service (`02`).
    package static let requestService: UInt8 = 0x02
    /// Request Response (`04`).
    package static let requestResponse: UInt8 = 0x04
    /// Read Without Encryption (`06`).
    package static let readWithoutEncryption: UInt8 = 0x06
    /// Write Without Encryption (`08`).
    package static let writeWithoutEncryption: UInt8 = 0x08
    /// Request System Code (`0C`).
    package static let requestSystemCode: UInt8 = 0x0C
    /// Request Service V2 (`32`).
    package static let requestServiceV2: UInt8 = 0x32
    /// Request Specification Version (`3C`).
    package static let requestSpecificationVersion: UInt8 = 0x3C
    /// Reset Mode (`3E`).
    package static let resetMode: UInt8 = 0x3E

    /// The longest frame body: LEN is one byte and counts itself (JIS X 6319-4 §8.1).
    package static let maximumFrameBody = 254
}
