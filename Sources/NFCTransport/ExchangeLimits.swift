/// How much one exchange through a connection may carry; tag engines read this to choose the
/// largest command that fits (FAST_READ spans, multi-block reads, READ BINARY Le).
public struct ExchangeLimits: Sendable, Hashable {
    /// The longest command, in bytes, one `transceive` accepts (without CRC; APDU length for ISO-DEP).
    public var maxCommandLength: Int
    /// The longest answer, in bytes, one `transceive` can return (without CRC; including SW1 SW2 for ISO-DEP).
    public var maxResponseLength: Int
    /// Whether extended-length APDUs pass through (ISO-DEP targets only).
    public var extendedLengthAPDUs: Bool
    /// Which native tag commands pass through.
    public var nativeCommands: NativeCommands
    /// The reader these limits are of, as errors about what it cannot carry name it (`HID OMNIKEY
    /// 5022 (profile omnikey5022)`); nil when the connection does not say.
    public var reader: String?

    /// Makes limits from their fields; nothing is checked.
    public init(
        maxCommandLength: Int, maxResponseLength: Int, extendedLengthAPDUs: Bool, nativeCommands: NativeCommands,
        reader: String? = nil
    ) {
        self.maxCommandLength = maxCommandLength
        self.maxResponseLength = maxResponseLength
        self.extendedLengthAPDUs = extendedLengthAPDUs
        self.nativeCommands = nativeCommands
        self.reader = reader
    }

    /// The reader as the subject of a sentence: ``reader``, or "the reader".
    public var readerPhrase: String { reader ?? "the reader" }

    /// Which native (non-APDU) commands a reader can send to a storage tag.
    public enum NativeCommands: Sendable, Hashable {
        /// Any command frame is sent as given.
        case all
        /// Only reads and writes mapped to PC/SC pseudo-APDUs (`FF B0` of at most `readLength`
        /// bytes, `FF D6` of one page or block); the driver translates READ and WRITE frames.
        case readAndWriteOnly(readLength: Int)
    }
}
