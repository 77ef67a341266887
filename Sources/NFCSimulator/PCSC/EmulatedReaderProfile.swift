/// The reader model `nfc emulate --pcsc --reader-profile` makes the emulated reader answer as,
/// each written from its vendor's reference manual (docs/readers.md), independently of the
/// driver's `ReaderProfile` in `NFCPCSC`: two readings of the same manual.
public enum EmulatedReaderProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A PC/SC Part 3 reader with Manage Session and Transparent Exchange (``EmulatedReaderFront``).
    case generic
    /// ACS ACR122U, from *API-ACR122U* v2.04: Get Data (§4.1), Read and Update Binary for MIFARE
    /// Ultralight (§5.3–5.4), Direct Transmit to its PN532 (§6.1), the LED and buzzer (§6.2),
    /// Get Firmware Version (§6.3); every other class-`FF` command fails with `63 00`, the one error
    /// word its pseudo-APDUs have. No transparent session, short APDUs only, no ISO/IEC 15693.
    case acr122u

    public var description: String { rawValue }

    /// Whether the reader sees `tag` at all: the ACR122U reads ISO/IEC 14443 and FeliCa only
    /// (API-ACR122U §1.1).
    public func sees(_ tag: any VirtualTag) -> Bool {
        if self == .acr122u, case .iso15693 = tag.parameters { return false }
        return true
    }
}
