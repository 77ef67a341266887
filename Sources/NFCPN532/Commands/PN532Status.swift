import NFCTransport

/// The status byte of InDataExchange, InCommunicateThru and other answers (NXP UM0701-02 §7.1,
/// Table 19 "error code list"): bits 0–5 the error code, bit 6 MI (more information, chaining),
/// bit 7 NAD present.
public struct PN532Status: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The whole byte.
    public let rawValue: UInt8
    /// A status from its byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A status with this error code and flags.
    public init(_ error: UInt8, moreInformation: Bool = false) {
        rawValue = (error & 0x3F) | (moreInformation ? 0x40 : 0)
    }

    /// The error code (bits 0–5); 0 is success.
    public var error: UInt8 { rawValue & 0x3F }
    /// Bit 6: more data follows (the host sends the next part).
    public var moreInformation: Bool { rawValue & 0x40 != 0 }

    /// Success.
    public static let success = PN532Status(0x00)
    /// The target did not answer in time.
    public static let timeout = PN532Status(0x01)
    /// A CRC error was detected by the CIU.
    public static let crcError = PN532Status(0x02)
    /// A parity error was detected by the CIU.
    public static let parityError = PN532Status(0x03)
    /// The RF buffer is too small for the data.
    public static let bufferTooSmall = PN532Status(0x07)
    /// An RF protocol error (e.g. a short frame answered when a long one was expected).
    public static let rfProtocolError = PN532Status(0x0B)
    /// The internal buffer overflowed.
    public static let internalBufferOverflow = PN532Status(0x0E)
    /// A parameter of the command is invalid.
    public static let invalidParameter = PN532Status(0x10)
    /// The MIFARE authentication failed.
    public static let mifareAuthenticationError = PN532Status(0x14)
    /// The chip is not in the state the command needs (e.g. TgGetData with no initiator).
    public static let invalidDeviceState = PN532Status(0x25)
    /// The command is not acceptable in the current state of the chip.
    public static let wrongContext = PN532Status(0x27)
    /// The target was released by the initiator.
    public static let released = PN532Status(0x29)
    /// The target has disappeared.
    public static let cardDisappeared = PN532Status(0x2B)

    /// The manual's name for the error code.
    public var description: String {
        switch error {
        case 0x00: "success"
        case 0x01: "time-out (0x01)"
        case 0x02: "CRC error (0x02)"
        case 0x03: "parity error (0x03)"
        case 0x04: "erroneous bit count during anticollision (0x04)"
        case 0x05: "framing error (0x05)"
        case 0x06: "abnormal bit collision (0x06)"
        case 0x07: "communication buffer too small (0x07)"
        case 0x09: "RF buffer overflow (0x09)"
        case 0x0A: "RF field not switched on in time (0x0A)"
        case 0x0B: "RF protocol error (0x0B)"
        case 0x0D: "temperature error (0x0D)"
        case 0x0E: "internal buffer overflow (0x0E)"
        case 0x10: "invalid parameter (0x10)"
        case 0x12: "DEP command not supported (0x12)"
        case 0x13: "DEP data format error (0x13)"
        case 0x14: "MIFARE authentication error (0x14)"
        case 0x23: "wrong UID check byte (0x23)"
        case 0x25: "invalid device state (0x25)"
        case 0x26: "operation not allowed (0x26)"
        case 0x27: "command not acceptable in this context (0x27)"
        case 0x29: "target released by the initiator (0x29)"
        case 0x2A: "card ID mismatch (0x2A)"
        case 0x2B: "card disappeared (0x2B)"
        case 0x2C: "NFCID3 mismatch (0x2C)"
        case 0x2D: "over-current (0x2D)"
        case 0x2E: "NAD missing in DEP frame (0x2E)"
        default: "error 0x\(String(error, radix: 16, uppercase: true))"
        }
    }

    /// The transport error a host reports for this status; nil for success.
    public var transportError: TransportError? {
        switch error {
        case 0x00: nil
        case 0x01: TransportError(.timeout, "PN532: \(description)")
        case 0x02, 0x03, 0x04, 0x05, 0x06: TransportError(.transmission, "PN532: \(description)")
        case 0x07, 0x09, 0x0E: TransportError(.frameTooLong, "PN532: \(description)")
        case 0x29, 0x2A, 0x2B: TransportError(.tagLost, "PN532: \(description)")
        case 0x0B, 0x12, 0x13, 0x23, 0x2C, 0x2E: TransportError(.protocolViolation, "PN532: \(description)")
        default: TransportError(.unsupportedCommand, "PN532: \(description)")
        }
    }

    /// The status a PN532 reports when a target's exchange fails with `error`.
    public init(_ error: TransportError) {
        switch error.code {
        case .timeout: self = .timeout
        case .transmission: self = .crcError
        case .frameTooLong: self = .bufferTooSmall
        case .tagLost, .noSuchTarget, .notConnected: self = .cardDisappeared
        case .protocolViolation: self = .rfProtocolError
        default: self = .wrongContext
        }
    }
}
