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
    /// ACS ACR1252U, from ACS's *ACM1252U-Y3 Reference Manual* v1.03 (the OEM module of the same
    /// reader): the PC/SC 2.0 transparent session with Switch Protocol (§5.2.3), Get Data, Read
    /// and Update Binary for Ultralight (§5.2.4.3–5.2.4.4: Le a multiple of 4, at most 16), `63 00`
    /// as its pseudo-APDUs' failure word. ISO/IEC 14443 and FeliCa; no ISO/IEC 15693.
    case acr1252u
    /// ACS ACR1552U: the ACR1252U's commands with ISO/IEC 15693 tags (Read and Update Binary of
    /// blocks, Switch Protocol to standard `02`), as published traces of it show.
    case acr1552u
    /// HID OMNIKEY 5022, from HID's public sample code for it (*HID-OMNIKEY-Sample-Codes*: the
    /// AViatoR `ContactlessCardCommunication`, `ReaderCapabilities` and `SEProcessorCommands`
    /// classes), HID's developer guides being unpublished: Get Data, Read Binary that answers a
    /// whole Type 2 READ, Update Binary, ISO/IEC 15693 blocks, HID's reader-capabilities envelope
    /// `FF 70 07 6B`, HID's status words. No transparent session, no FeliCa beyond the IDm.
    case omnikey5022
    /// HID OMNIKEY 5427 CK: the 5022's firmware family (no public guide of its own), its product
    /// name in the capabilities envelope.
    case omnikey5427
    /// Identiv uTrust 3700 F, from Identiv's *Reference Manual for the CLOUD 370x F Contactless
    /// Desktop Readers* v1.0: Get Data, Read Binary answering one block whatever Le asks (§6.2.1),
    /// Update Binary, the FeliCa pseudo-APDUs `FF 40`–`FF 4A` (§6.2.13–6.2.18), the manual's
    /// status words. No transparent session, no ISO/IEC 15693.
    case utrust3700f

    public var description: String { rawValue }

    /// Whether the reader sees `tag` at all: the ACR122U reads ISO/IEC 14443 and FeliCa only
    /// (API-ACR122U §1.1), the ACR1252U ISO/IEC 14443, Topaz and FeliCa (ACM1252U-Y3 §5.3.11's
    /// polling bits); the CLOUD 370x F manual documents no ISO/IEC 15693 command for the uTrust
    /// 3700 F (its successor, the 3720 F, has `FF FC`, 3720F manual §6.3.7), so none is assumed.
    public func sees(_ tag: any VirtualTag) -> Bool {
        if [.acr122u, .acr1252u, .utrust3700f].contains(self), case .iso15693 = tag.parameters { return false }
        return true
    }

    /// The longest command APDU the reader takes (its CCID descriptor's longest message, less the
    /// 10-byte header; short APDUs only on the ACR122U).
    var maximumAPDU: Int {
        switch self {
        case .generic: 65_544
        case .acr122u: 261
        case .acr1252u: 512
        case .acr1552u: 506
        case .omnikey5022, .omnikey5427: 510
        case .utrust3700f: 1_024
        }
    }
}
