import NFCTransport

/// A PC/SC return code (`SCARD_S_SUCCESS`, `SCARD_E_*`, `SCARD_W_*`, `SCARD_F_*`; PC/SC
/// Part 5 and pcsc-lite's `pcsclite.h`), with its name and what it means to a user.
public struct PCSCStatus: Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit code (a `LONG` in the C API, read as unsigned).
    public let rawValue: UInt32

    /// The status with this code; codes this type does not name are kept.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ value: PCSCABI.LONG) { rawValue = UInt32(truncatingIfNeeded: value) }

    /// `SCARD_S_SUCCESS` (0): the call succeeded.
    public static let success = PCSCStatus(rawValue: 0)
    /// `SCARD_E_CANCELLED`: the call was cancelled by `SCardCancel`.
    public static let cancelled = PCSCStatus(rawValue: 0x8010_0002)
    /// `SCARD_E_INVALID_HANDLE`: the context or card handle is no longer valid.
    public static let invalidHandle = PCSCStatus(rawValue: 0x8010_0003)
    /// `SCARD_E_INSUFFICIENT_BUFFER`: the answer is longer than the receive buffer.
    public static let insufficientBuffer = PCSCStatus(rawValue: 0x8010_0008)
    /// `SCARD_E_UNKNOWN_READER`: no reader has this name.
    public static let unknownReader = PCSCStatus(rawValue: 0x8010_0009)
    /// `SCARD_E_TIMEOUT`: the timeout given to the call expired.
    public static let timeout = PCSCStatus(rawValue: 0x8010_000A)
    /// `SCARD_E_SHARING_VIOLATION`: another connection (another program) holds the card exclusively.
    public static let sharingViolation = PCSCStatus(rawValue: 0x8010_000B)
    /// `SCARD_E_NO_SMARTCARD`: no card (tag) is on the reader.
    public static let noSmartcard = PCSCStatus(rawValue: 0x8010_000C)
    /// `SCARD_E_PROTO_MISMATCH`: the requested protocol does not match the card's.
    public static let protocolMismatch = PCSCStatus(rawValue: 0x8010_000F)
    /// `SCARD_E_NOT_READY`: the reader or card is not ready to accept commands.
    public static let notReady = PCSCStatus(rawValue: 0x8010_0010)
    /// `SCARD_E_SYSTEM_CANCELLED`: the system cancelled the call (e.g. on logoff or shutdown).
    public static let systemCancelled = PCSCStatus(rawValue: 0x8010_0012)
    /// `SCARD_F_COMM_ERROR`: an internal communication error, e.g. with pcscd.
    public static let communicationError = PCSCStatus(rawValue: 0x8010_0013)
    /// `SCARD_F_UNKNOWN_ERROR`: an internal error of unknown source.
    public static let unknownError = PCSCStatus(rawValue: 0x8010_0014)
    /// `SCARD_E_NOT_TRANSACTED`: the reader did not complete the exchange (pcsc-lite's answer when a transmit fails).
    public static let notTransacted = PCSCStatus(rawValue: 0x8010_0016)
    /// `SCARD_E_READER_UNAVAILABLE`: the reader is not available (typically unplugged).
    public static let readerUnavailable = PCSCStatus(rawValue: 0x8010_0017)
    /// `SCARD_E_NO_SERVICE`: the PC/SC service (pcscd) is not running.
    public static let noService = PCSCStatus(rawValue: 0x8010_001D)
    /// `SCARD_E_SERVICE_STOPPED`: the PC/SC service stopped.
    public static let serviceStopped = PCSCStatus(rawValue: 0x8010_001E)
    /// `SCARD_E_NO_READERS_AVAILABLE`: no reader is connected.
    public static let noReadersAvailable = PCSCStatus(rawValue: 0x8010_002E)
    /// `SCARD_E_COMM_DATA_LOST`: a communication error with the card lost data.
    public static let communicationDataLost = PCSCStatus(rawValue: 0x8010_002F)
    /// `SCARD_W_UNSUPPORTED_CARD`: the reader cannot communicate with this card.
    public static let unsupportedCard = PCSCStatus(rawValue: 0x8010_0065)
    /// `SCARD_W_UNRESPONSIVE_CARD`: the card does not respond to a reset.
    public static let unresponsiveCard = PCSCStatus(rawValue: 0x8010_0066)
    /// `SCARD_W_UNPOWERED_CARD`: the card is not powered.
    public static let unpoweredCard = PCSCStatus(rawValue: 0x8010_0067)
    /// `SCARD_W_RESET_CARD`: the card was reset (by another connection); its state is lost.
    public static let resetCard = PCSCStatus(rawValue: 0x8010_0068)
    /// `SCARD_W_REMOVED_CARD`: the card was removed.
    public static let removedCard = PCSCStatus(rawValue: 0x8010_0069)

    private static let names: [UInt32: (String, String)] = [
        0: ("SCARD_S_SUCCESS", "success"),
        0x8010_0002: ("SCARD_E_CANCELLED", "the wait was cancelled"),
        0x8010_0003: ("SCARD_E_INVALID_HANDLE", "the connection is no longer valid"),
        0x8010_0008: ("SCARD_E_INSUFFICIENT_BUFFER", "the answer is longer than the buffer"),
        0x8010_0009: ("SCARD_E_UNKNOWN_READER", "no such reader"),
        0x8010_000A: ("SCARD_E_TIMEOUT", "timed out"),
        0x8010_000B: ("SCARD_E_SHARING_VIOLATION", "another program holds the card exclusively"),
        0x8010_000C: ("SCARD_E_NO_SMARTCARD", "no tag on the reader"),
        0x8010_000F: ("SCARD_E_PROTO_MISMATCH", "the card does not speak the requested protocol"),
        0x8010_0010: ("SCARD_E_NOT_READY", "the reader is not ready"),
        0x8010_0012: ("SCARD_E_SYSTEM_CANCELLED", "the system cancelled the call"),
        0x8010_0013: ("SCARD_F_COMM_ERROR", "communication with pcscd failed"),
        0x8010_0014: ("SCARD_F_UNKNOWN_ERROR", "unknown internal error"),
        0x8010_0016: ("SCARD_E_NOT_TRANSACTED", "the reader did not complete the command"),
        0x8010_0017: ("SCARD_E_READER_UNAVAILABLE", "the reader was unplugged"),
        0x8010_001D: ("SCARD_E_NO_SERVICE", "pcscd is not running"),
        0x8010_001E: ("SCARD_E_SERVICE_STOPPED", "pcscd stopped"),
        0x8010_002E: ("SCARD_E_NO_READERS_AVAILABLE", "no reader is connected"),
        0x8010_002F: ("SCARD_E_COMM_DATA_LOST", "data was lost talking to the reader"),
        0x8010_0065: ("SCARD_W_UNSUPPORTED_CARD", "the reader cannot talk to this tag"),
        0x8010_0066: ("SCARD_W_UNRESPONSIVE_CARD", "the tag does not answer"),
        0x8010_0067: ("SCARD_W_UNPOWERED_CARD", "the tag is not powered"),
        0x8010_0068: ("SCARD_W_RESET_CARD", "another program reset the tag"),
        0x8010_0069: ("SCARD_W_REMOVED_CARD", "the tag was removed"),
    ]

    /// `SCARD_E_…`, or the hex value for codes this table lacks.
    public var name: String {
        Self.names[rawValue]?.0 ?? "0x" + String(rawValue, radix: 16, uppercase: true)
    }

    /// What the code means and its name, e.g. `the tag was removed (SCARD_W_REMOVED_CARD)`, or `PC/SC error 0x…`.
    public var description: String {
        guard let (name, meaning) = Self.names[rawValue] else { return "PC/SC error 0x\(String(rawValue, radix: 16, uppercase: true))" }
        return "\(meaning) (\(name))"
    }

    /// Whether pcscd itself went away (the context must be established again).
    var meansServiceGone: Bool {
        [.noService, .serviceStopped, .communicationError, .invalidHandle].contains(self)
    }

    /// The transport error a user sees for this code, prefixed with what was being done.
    func transportError(_ doing: String) -> TransportError {
        let code: TransportError.Code =
            switch self {
            case .noService, .serviceStopped, .communicationError: .serviceUnavailable
            case .noReadersAvailable, .readerUnavailable: .readerRemoved
            case .unknownReader: .noSuchTarget
            case .removedCard, .noSmartcard, .unresponsiveCard, .unpoweredCard, .resetCard, .invalidHandle: .tagLost
            case .sharingViolation: .sharingViolation
            case .timeout: .timeout
            case .cancelled, .systemCancelled: .cancelled
            case .unsupportedCard, .protocolMismatch: .unsupportedCommand
            default: .transmission
            }
        return TransportError(code, "\(doing): \(description)")
    }
}
