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

    /// Makes limits from their four fields; nothing is checked.
    public init(maxCommandLength: Int, maxResponseLength: Int, extendedLengthAPDUs: Bool, nativeCommands: NativeCommands) {
        self.maxCommandLength = maxCommandLength
        self.maxResponseLength = maxResponseLength
        self.extendedLengthAPDUs = extendedLengthAPDUs
        self.nativeCommands = nativeCommands
    }

    /// Which native (non-APDU) commands a reader can send to a storage tag.
    public enum NativeCommands: Sendable, Hashable {
        /// Any command frame is sent as given.
        case all
        /// Only reads and writes mapped to PC/SC pseudo-APDUs (`FF B0` of at most `readLength`
        /// bytes, `FF D6` of one page or block); the driver translates READ and WRITE frames.
        case readAndWriteOnly(readLength: Int)
    }
}
