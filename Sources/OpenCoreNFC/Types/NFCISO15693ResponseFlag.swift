/// The response flags byte an ISO 15693 tag answers with, as Core NFC's
/// `NFCISO15693ResponseFlag`. ISO/IEC 15693-3 §7.4.1, Table 7.
@available(iOS 14.0, *)
public struct NFCISO15693ResponseFlag: OptionSet, Hashable, Sendable {
    /// The flags byte as received, bit 1 the least significant.
    public let rawValue: UInt8

    /// Makes flags from the byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bit 1: the tag reports an error; an error code follows the flags.
    public static let error = NFCISO15693ResponseFlag(rawValue: 1 << 0)
    /// Bit 2: the tag's response buffer holds a result to read (cryptographic commands).
    public static let responseBufferValid = NFCISO15693ResponseFlag(rawValue: 1 << 1)
    /// Bit 3: this is the last response of the command.
    public static let finalResponse = NFCISO15693ResponseFlag(rawValue: 1 << 2)
    /// Bit 4: the response uses the protocol format extension.
    public static let protocolExtension = NFCISO15693ResponseFlag(rawValue: 1 << 3)
    /// Bit 5: first bit of the block security status (extended commands).
    public static let blockSecurityStatusBit5 = NFCISO15693ResponseFlag(rawValue: 1 << 4)
    /// Bit 6: second bit of the block security status (extended commands).
    public static let blockSecurityStatusBit6 = NFCISO15693ResponseFlag(rawValue: 1 << 5)
    /// Bit 7: the tag needs more time and will answer later.
    public static let waitTimeExtension = NFCISO15693ResponseFlag(rawValue: 1 << 6)
}
