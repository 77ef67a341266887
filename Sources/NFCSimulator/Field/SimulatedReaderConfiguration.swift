import NFCTransport

/// The simulated reader's capabilities: an ideal reader by default, or one configured like a
/// real model to test how engines adapt (e.g. a PN533's 262-byte buffer).
public struct SimulatedReaderConfiguration: Sendable, Hashable {
    /// The highest ISO/IEC 14443 and FeliCa bit rate the reader negotiates.
    public var maximumBitRate: BitRate
    /// FSD, the largest ISO-DEP frame the reader accepts (ISO/IEC 14443-4 FSDI 8 → 256 B).
    public var frameSize: Int
    /// What one exchange may carry.
    public var limits: ExchangeLimits

    /// A reader configuration; by default the ideal reader: 848 kbit/s, FSD 256 bytes, commands up to 65,544 and answers
    /// up to 65,538 bytes, extended-length APDUs and every native command.
    public init(
        maximumBitRate: BitRate = .kbps848,
        frameSize: Int = 256,
        limits: ExchangeLimits = ExchangeLimits(
            maxCommandLength: 65_544, maxResponseLength: 65_538,
            extendedLengthAPDUs: true, nativeCommands: .all
        )
    ) {
        self.maximumBitRate = maximumBitRate
        self.frameSize = frameSize
        self.limits = limits
    }

    /// An ideal reader: 848 kbit/s, FSD 256, extended APDUs, any frame up to 64 KiB.
    public static let ideal = SimulatedReaderConfiguration()

    /// A reader that stays at 106 kbit/s (the common case without PPS).
    public static let baseRate = SimulatedReaderConfiguration(maximumBitRate: .kbps106)
}
