/// A status word SW1 SW2 a simulated card ends its response with (ISO/IEC 7816-4:2013 §5.6, Tables 5–6).
public struct SimStatusWord: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// SW1 in the high byte, SW2 in the low byte (`0x9000`).
    public var rawValue: UInt16
    /// A status word from its 16-bit value, SW1 in the high byte.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A status word from SW1 and SW2.
    public init(_ sw1: UInt8, _ sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    /// SW1, the high byte.
    public var sw1: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    /// SW2, the low byte.
    public var sw2: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// The two bytes, SW1 first.
    public var bytes: [UInt8] { [sw1, sw2] }

    /// `9000`: normal processing.
    public static let success = SimStatusWord(rawValue: 0x9000)
    /// `61xx`: normal processing, `xx` more bytes available with GET RESPONSE (`00`: 256 or more).
    public static func bytesRemaining(_ count: Int) -> SimStatusWord {
        SimStatusWord(0x61, count >= 256 ? 0x00 : UInt8(truncatingIfNeeded: max(count, 0)))
    }
    /// `6282`: end of file reached before reading Ne bytes.
    public static let endOfFileReached = SimStatusWord(rawValue: 0x6282)
    /// `6581`: memory failure.
    public static let memoryFailure = SimStatusWord(rawValue: 0x6581)
    /// `6700`: wrong length (a malformed APDU, Lc or Le not acceptable).
    public static let wrongLength = SimStatusWord(rawValue: 0x6700)
    /// `6881`: logical channel not supported.
    public static let logicalChannelNotSupported = SimStatusWord(rawValue: 0x6881)
    /// `6882`: secure messaging not supported.
    public static let secureMessagingNotSupported = SimStatusWord(rawValue: 0x6882)
    /// `6883`: last command of the chain expected.
    public static let lastCommandOfChainExpected = SimStatusWord(rawValue: 0x6883)
    /// `6981`: command incompatible with file structure.
    public static let incompatibleFileStructure = SimStatusWord(rawValue: 0x6981)
    /// `6982`: security status not satisfied.
    public static let securityStatusNotSatisfied = SimStatusWord(rawValue: 0x6982)
    /// `6985`: conditions of use not satisfied.
    public static let conditionsNotSatisfied = SimStatusWord(rawValue: 0x6985)
    /// `6986`: command not allowed (no current EF).
    public static let noCurrentEF = SimStatusWord(rawValue: 0x6986)
    /// `6999`: applet selection failed (Java Card).
    public static let appletSelectionFailed = SimStatusWord(rawValue: 0x6999)
    /// `6A80`: incorrect parameters in the command data field.
    public static let incorrectData = SimStatusWord(rawValue: 0x6A80)
    /// `6A81`: function not supported.
    public static let functionNotSupported = SimStatusWord(rawValue: 0x6A81)
    /// `6A82`: file or application not found.
    public static let fileNotFound = SimStatusWord(rawValue: 0x6A82)
    /// `6A84`: not enough memory space in the file.
    public static let notEnoughMemory = SimStatusWord(rawValue: 0x6A84)
    /// `6A86`: incorrect parameters P1-P2.
    public static let incorrectP1P2 = SimStatusWord(rawValue: 0x6A86)
    /// `6B00`: wrong parameters P1-P2 (offset outside the EF).
    public static let wrongParameters = SimStatusWord(rawValue: 0x6B00)
    /// `6Cxx`: wrong Le field, `xx` is the exact number of available bytes.
    public static func wrongLe(exact count: Int) -> SimStatusWord {
        SimStatusWord(0x6C, count >= 256 ? 0x00 : UInt8(truncatingIfNeeded: max(count, 0)))
    }
    /// `6D00`: instruction code not supported or invalid.
    public static let instructionNotSupported = SimStatusWord(rawValue: 0x6D00)
    /// `6E00`: class not supported.
    public static let classNotSupported = SimStatusWord(rawValue: 0x6E00)
    /// `6F00`: no precise diagnosis.
    public static let noPreciseDiagnosis = SimStatusWord(rawValue: 0x6F00)

    /// Four upper-case hex digits, SW1 first (e.g. `6A82`).
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        return String((0..<4).map { digits[Int(rawValue >> (12 - 4 * UInt16($0))) & 0xF] })
    }
}

/// A simulated card's response APDU: data and status word, with what the chip spent producing it.
///
/// `additionalProcessingTime` and `writesMemory` are not sent; they tell the field how long the
/// card worked (ISO/IEC 7816-4:2013 §5.1: response = data field + SW1 SW2).
public struct SimResponseAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The response data field.
    public var data: [UInt8]
    /// SW1 SW2.
    public var status: SimStatusWord
    /// Time beyond the host's per-command processing time (EEPROM programming, cryptography).
    public var additionalProcessingTime: Duration
    /// Whether the command programmed non-volatile memory (a tear may interrupt it).
    public var writesMemory: Bool
    /// Whether data beyond the command's Ne waits for GET RESPONSE behind `61xx` instead of
    /// being cut (ISO/IEC 7816-4:2013 §5.3.4 allows either; FIDO keys answer `61xx` to a short
    /// Le of `00`, and CTAP clients rely on it). Not sent; defaults to cutting.
    public var keepsDataBeyondNe = false

    /// A response; by default no data, `9000`, no extra processing time and no memory written.
    public init(
        data: [UInt8] = [], status: SimStatusWord = .success, additionalProcessingTime: Duration = .zero, writesMemory: Bool = false
    ) {
        self.data = data
        self.status = status
        self.additionalProcessingTime = additionalProcessingTime
        self.writesMemory = writesMemory
    }

    /// A response of a status word alone.
    public init(_ status: SimStatusWord) {
        self.init(data: [], status: status)
    }

    /// Data and SW1 SW2 as sent.
    public var bytes: [UInt8] { data + status.bytes }

    /// The data length and status word, e.g. `12 B, SW 9000`.
    public var description: String { "\(data.count) B, SW \(status)" }
}
