/// The flag bits of an NDEF record header byte, above the 3-bit TNF.
///
/// NFC Forum NDEF 1.0 §3.2 (Figure 4): MB, ME, CF, SR, IL.
public struct NDEFRecordFlags: OptionSet, Sendable, Hashable {
    /// The header byte's flag bits; the TNF bits (b2–b0) are always clear.
    public let rawValue: UInt8
    /// The flags of a header byte; its TNF bits (b2–b0) are dropped.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0xF8 }

    /// Message Begin: the first record of a message (§3.2.1).
    public static let messageBegin = NDEFRecordFlags(rawValue: 0x80)
    /// Message End: the last record of a message (§3.2.2).
    public static let messageEnd = NDEFRecordFlags(rawValue: 0x40)
    /// Chunk Flag: this is the first or a middle chunk of a chunked record (§3.2.3).
    public static let chunk = NDEFRecordFlags(rawValue: 0x20)
    /// Short Record: PAYLOAD_LENGTH is one byte (§3.2.4).
    public static let shortRecord = NDEFRecordFlags(rawValue: 0x10)
    /// ID_LENGTH is present (§3.2.5).
    public static let identifierLength = NDEFRecordFlags(rawValue: 0x08)
}
