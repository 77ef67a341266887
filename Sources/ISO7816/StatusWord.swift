/// The two status bytes SW1 SW2 that end every response APDU (ISO/IEC 7816-4:2020 §5.6, Tables 5–6).
public struct StatusWord: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The two bytes as one value, SW1 in the high byte (`0x9000`).
    public let rawValue: UInt16
    /// A status word from its 16-bit value, SW1 in the high byte.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A status word from its two bytes.
    public init(sw1: UInt8, sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    /// SW1, the first status byte.
    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    /// SW2, the second status byte.
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }
    /// SW1 then SW2, as they end a response.
    public var bytes: [UInt8] { [sw1, sw2] }

    /// `9000`: normal processing.
    public static let success = StatusWord(rawValue: 0x9000)
    /// `6281`: part of the returned data may be corrupted.
    public static let dataMayBeCorrupted = StatusWord(rawValue: 0x6281)
    /// `6282`: end of file reached before reading Ne bytes.
    public static let endOfFileReached = StatusWord(rawValue: 0x6282)
    /// `6581`: memory failure.
    public static let memoryFailure = StatusWord(rawValue: 0x6581)
    /// `6700`: wrong length.
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// `6882`: secure messaging not supported.
    public static let secureMessagingNotSupported = StatusWord(rawValue: 0x6882)
    /// `6883`: last command of the chain expected.
    public static let lastCommandOfChainExpected = StatusWord(rawValue: 0x6883)
    /// `6884`: command chaining not supported.
    public static let chainingNotSupported = StatusWord(rawValue: 0x6884)
    /// `6981`: command incompatible with file structure.
    public static let incompatibleFileStructure = StatusWord(rawValue: 0x6981)
    /// `6982`: security status not satisfied.
    public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x6982)
    /// `6983`: authentication method blocked.
    public static let authenticationMethodBlocked = StatusWord(rawValue: 0x6983)
    /// `6984`: reference data not usable.
    public static let referenceDataNotUsable = StatusWord(rawValue: 0x6984)
    /// `6985`: conditions of use not satisfied.
    public static let conditionsNotSatisfied = StatusWord(rawValue: 0x6985)
    /// `6986`: command not allowed (no current EF).
    public static let commandNotAllowed = StatusWord(rawValue: 0x6986)
    /// `6A80`: incorrect parameters in the data field.
    public static let incorrectData = StatusWord(rawValue: 0x6A80)
    /// `6A81`: function not supported.
    public static let functionNotSupported = StatusWord(rawValue: 0x6A81)
    /// `6A82`: file or application not found.
    public static let fileNotFound = StatusWord(rawValue: 0x6A82)
    /// `6A84`: not enough memory space in the file.
    public static let notEnoughMemory = StatusWord(rawValue: 0x6A84)
    /// `6A86`: incorrect parameters P1-P2.
    public static let incorrectP1P2 = StatusWord(rawValue: 0x6A86)
    /// `6A88`: referenced data not found.
    public static let referencedDataNotFound = StatusWord(rawValue: 0x6A88)
    /// `6B00`: wrong parameters P1-P2 (offset outside the EF).
    public static let wrongParameters = StatusWord(rawValue: 0x6B00)
    /// `6D00`: instruction code not supported or invalid.
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    /// `6E00`: class not supported.
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)
    /// `6F00`: no precise diagnosis.
    public static let noPreciseDiagnosis = StatusWord(rawValue: 0x6F00)

    /// `9000`, or `61xx` (more data available) — processing completed.
    public var isSuccess: Bool { rawValue == 0x9000 || sw1 == 0x61 }
    /// `61xx`: xx more bytes are waiting for GET RESPONSE (`00` meaning 256 or more).
    public var bytesAvailable: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// `6Cxx`: wrong Le; xx is the exact length (`00` meaning 256).
    public var correctLength: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// `63Cx`: verification failed, x retries left.
    public var retriesLeft: Int? { rawValue & 0xFFF0 == 0x63C0 ? Int(sw2 & 0x0F) : nil }

    /// Four uppercase hex digits (`9000`, `6A82`).
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        return String([3, 2, 1, 0].map { digits[Int(rawValue >> ($0 * 4) & 0xF)] })
    }
}
