/// The status words the emulated reader answers its own pseudo-APDUs with (PC/SC Part 3
/// §3.2.2.1, docs/pcsc.md "Status words"; ISO/IEC 7816-4 §5.6 for their general meaning).
public enum ReaderStatusWord {
    /// `90 00` success.
    public static let success: [UInt8] = [0x90, 0x00]
    /// `62 82` end of data or memory reached before Le bytes.
    public static let endReached: [UInt8] = [0x62, 0x82]
    /// `63 00` the tag refused (NAK, error response) or did not answer.
    public static let failed: [UInt8] = [0x63, 0x00]
    /// `64 01` no response from the card within the time limit (in a `C0` status).
    public static let noResponse: [UInt8] = [0x64, 0x01]
    /// `67 00` wrong length (Lc, Le or the APDU itself).
    public static let wrongLength: [UInt8] = [0x67, 0x00]
    /// `68 00` class `FF`: instruction unknown to the reader.
    public static let unknownInstruction: [UInt8] = [0x68, 0x00]
    /// `6A 81` function not supported.
    public static let notSupported: [UInt8] = [0x6A, 0x81]
    /// `6A 82` address out of range.
    public static let outOfRange: [UInt8] = [0x6A, 0x82]
    /// `6B 00` wrong P1 P2.
    public static let wrongParameters: [UInt8] = [0x6B, 0x00]
    /// `6E 00` class not supported (a non-`FF` APDU for a storage tag).
    public static let classNotSupported: [UInt8] = [0x6E, 0x00]

    /// `6C XX` wrong Le; XX is the exact length available (GET DATA, PC/SC Part 3 §3.2.2.1.3).
    public static func exactLength(_ count: Int) -> [UInt8] {
        [0x6C, UInt8(truncatingIfNeeded: min(count, 255))]
    }
}
