import NFCTransport

/// What a PC/SC reader really offers beyond PC/SC Part 3, and so how the driver reaches a tag
/// through it (docs/readers.md has the matrix of profiles and capabilities).
///
/// A profile is found from the name pcscd gives the reader, else from a vendor firmware probe
/// (``firmwareProbe``) answered once per reader, else it is ``generic``. `OPENCORENFC_READER_PROFILE`
/// (or `--reader-profile` on the command line) names one for a reader that cannot be recognised.
public enum ReaderProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A PC/SC Part 3 reader: a transparent session when it starts one (`FF C2`), otherwise
    /// READ and UPDATE BINARY; APDUs of any length to ISO-DEP cards.
    case generic
    /// ACS ACR122U (a PN532 behind a CCID interface; ACS *API-ACR122U* v2.04): native frames
    /// through Direct Transmit (`FF 00 00 00 Lc D4 …`, §6.1) carrying the PN532's
    /// InCommunicateThru and InDataExchange (NXP UM0701-02 §7.3.8–9), no transparent session,
    /// short APDUs only (its CCID descriptor announces short-APDU exchange), no ISO/IEC 15693.
    case acr122u
    /// ACS ACR1252U (an NXP PN512 behind an LPC11U37F, no PN532): a PC/SC 2.0 Part 3 transparent
    /// session (`FF C2`, ACS's *ACM1252U-Y3 Reference Manual* v1.03 §5.2.3, the module the
    /// ACR1252U's API manual shares its tables with) for Type 2 native commands and FeliCa; no
    /// ISO/IEC 15693 (its PICC operating parameter, §5.3.11, has bits for ISO 14443 A and B,
    /// FeliCa 212 and 424, Topaz only); APDUs up to 512 bytes (its PICC interface's CCID descriptor:
    /// 522-byte messages). Its SAM slot is a second, contact reader.
    case acr1252u
    /// ACS ACR1552U: the ACR1252U's transparent session, with ISO/IEC 15693 through it (a captured
    /// exchange switches to ISO/IEC 15693 with `8F 02 02 03`); APDUs up to 506 bytes (516-byte
    /// CCID messages). ACS's REF-ACR1552U manual is not public in full: the profile is read from
    /// what it shares with the ACR1252U's and from published traces.
    case acr1552u
    /// HID OMNIKEY 5022 (HID's AViatoR pseudo-APDUs: `FF CA`, `FF B0`, `FF D6`, as HID's
    /// *HID-OMNIKEY-Sample-Codes* `ContactlessCardCommunication.cs` sends them): no transparent
    /// session, READ BINARY answers a whole Type 2 READ (16 bytes) whatever Le asks
    /// (martinpaljak/nfc4pc `NDEF.java`), ISO/IEC 15693 blocks through `FF B0`/`FF D6`, FeliCa IDm
    /// only, `64 00` when the card does not answer (HID's `SEProcessorCommands.cs`), APDUs up to
    /// 510 bytes (its CCID descriptor: 520-byte messages, 10 of them header).
    case omnikey5022
    /// HID OMNIKEY 5427 CK: HID publishes no developer guide for it (only in its paid toolkit); it
    /// is taken for the 5022's firmware family, which HID's sample code drives the same way.
    case omnikey5427
    /// Identiv uTrust 3700 F (Identiv *Reference Manual for the CLOUD 370x F*, v1.0, §6.2): no
    /// transparent session; READ BINARY answers one block whatever Le asks — 4 bytes of a
    /// Type 2 tag (§6.2.1) — so a READ takes four; FeliCa through its own pseudo-APDUs (`FF 40`
    /// Polling, `FF 42`, `FF 44`, `FF 46` Read and `FF 48` Write Without Encryption, `FF 4A`;
    /// §6.2.13–6.2.18); no ISO/IEC 15693; APDUs up to 1,024 bytes (1,034-byte CCID messages).
    case utrust3700f

    /// How a reader's profile was found.
    public enum Source: String, Sendable, Hashable {
        /// Given: `--reader-profile` or `OPENCORENFC_READER_PROFILE`.
        case override
        /// Recognised from the reader's PC/SC name.
        case name
        /// Recognised from the reader's answer to ``ReaderProfile/firmwareProbe``, or not
        /// recognised by it (then ``ReaderProfile/generic``).
        case probe
        /// Nothing told (no tag to probe through): taken for ``ReaderProfile/generic``.
        case assumed
    }

    /// The environment variable naming a profile for every PC/SC reader.
    public static let environmentVariable = "OPENCORENFC_READER_PROFILE"

    public var description: String { rawValue }

    /// The reader model the profile stands for.
    public var readerModel: String {
        switch self {
        case .generic: "a PC/SC Part 3 contactless reader"
        case .acr122u: "ACS ACR122U"
        case .acr1252u: "ACS ACR1252U"
        case .acr1552u: "ACS ACR1552U"
        case .omnikey5022: "HID OMNIKEY 5022"
        case .omnikey5427: "HID OMNIKEY 5427 CK"
        case .utrust3700f: "Identiv uTrust 3700 F"
        }
    }

    /// What the reader can carry, as this profile reads its manual (docs/readers.md's matrix).
    public var capabilities: Set<ReaderCapability> {
        switch self {
        case .generic:
            [.type2ReadWrite, .type2NativeCommands, .iso7816, .extendedAPDUs, .felica, .iso15693, .transparentSession]
        case .acr122u: [.type2ReadWrite, .type2NativeCommands, .iso7816, .felica, .directTransmit]
        case .acr1252u: [.type2ReadWrite, .type2NativeCommands, .iso7816, .extendedAPDUs, .felica, .transparentSession]
        case .acr1552u: [.type2ReadWrite, .type2NativeCommands, .iso7816, .extendedAPDUs, .felica, .iso15693, .transparentSession]
        case .omnikey5022, .omnikey5427: [.type2ReadWrite, .iso7816, .extendedAPDUs, .iso15693]
        case .utrust3700f: [.type2ReadWrite, .iso7816, .extendedAPDUs, .felica]
        }
    }

    /// The longest APDU the reader passes to an ISO-DEP card and the longest answer it returns
    /// (its CCID descriptor's dwMaxCCIDMessageLength less the 10-byte header; a short-APDU
    /// reader's 261 and 258).
    var apduLimits: (command: Int, response: Int, extended: Bool) {
        switch self {
        case .generic: (65_544, PCSCCard.maxResponse, true)
        case .acr122u: (261, 258, false)
        case .acr1252u: (512, 512, true)
        case .acr1552u: (506, 506, true)
        case .omnikey5022, .omnikey5427: (510, 510, true)
        case .utrust3700f: (1_024, 1_024, true)
        }
    }

    /// The profile of that name (case-insensitive); a usage error naming the known ones otherwise.
    public static func named(_ text: String) throws(TransportError) -> ReaderProfile {
        if let profile = ReaderProfile(rawValue: text.lowercased()) { return profile }
        throw TransportError(
            .unsupportedCommand,
            "no reader profile \"\(text)\"; the profiles are \(allCases.map(\.rawValue).joined(separator: ", "))")
    }

    /// The profile `OPENCORENFC_READER_PROFILE` names, `nil` when it is unset or empty.
    public static func fromEnvironment(_ environment: [String: String]) throws(TransportError) -> ReaderProfile? {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        do { return try named(text) } catch { throw TransportError(error.code, "\(environmentVariable): \(error.reason)") }
    }

    /// The profile a reader's PC/SC name gives away, if any. pcsc-lite's CCID driver names the
    /// ACR122U "ACS ACR122U PICC Interface 00 00", ACS's own driver "ACS ACR122U 00 00", Windows
    /// "ACS ACR122 0" (the names libnfc's `acr122_pcsc` driver looks for start "ACS ACR122").
    ///
    /// ACS's PC/SC 2.0 readers: "ACS ACR1252 1S CL Reader [ACR1252 1S CL Reader PICC] …", "ACS
    /// ACR1252 Dual Reader [ACR1252 Dual Reader PICC] …", "ACS ACR1252 Reader …" (the CCID driver's
    /// and acsccid's names), "ACS ACR1552 1S CL Reader [ACR1552 1S CL Reader PICC] …"; the SAM
    /// interface of either ("… SAM] … 01 00") is a contact slot, not the contactless reader.
    ///
    /// HID's readers: "HID Global OMNIKEY 5022 Smart Card Reader …" (pcsc-lite, Windows, macOS) and
    /// "HID OMNIKEY 5427 CK …" (pcsc-lite; the CCID driver's supported-readers list). Identiv's:
    /// "Identiv uTrust 3700 F CL Reader …" and, on Windows, "Identiv CLOUD 3700 F Contactless
    /// Reader 0" (names AusweisApp's reader configuration tests record).
    public static func recognise(readerName: String) -> ReaderProfile? {
        let name = readerName.uppercased()
        if name.hasPrefix("ACS ACR122") { return .acr122u }
        if name.hasPrefix("ACS ACR1252") || name.hasPrefix("ACS ACR1552") {
            guard !name.contains("SAM") else { return nil }
            return name.hasPrefix("ACS ACR1252") ? .acr1252u : .acr1552u
        }
        if name.contains("OMNIKEY 5022") { return .omnikey5022 }
        if name.contains("OMNIKEY 5427") { return .omnikey5427 }
        if name.hasPrefix("IDENTIV"), name.contains("3700 F") || name.contains("3700F") { return .utrust3700f }
        return nil
    }

    /// ACS's Get Firmware Version pseudo-APDU (API-ACR122U §6.3): the ACR122U answers ten ASCII
    /// bytes such as "ACR122U215", with no status word; other readers refuse the class-`FF`
    /// instruction with a status word.
    public static let firmwareProbe: [UInt8] = [0xFF, 0x00, 0x48, 0x00, 0x00]

    /// The profile a reader's answer to ``firmwareProbe`` identifies, if any.
    public static func recognise(firmwareAnswer answer: [UInt8]) -> ReaderProfile? {
        let acr122u = Array("ACR122U".utf8)
        return answer.count >= acr122u.count && Array(answer.prefix(acr122u.count)) == acr122u ? .acr122u : nil
    }

    /// HID's reader-capabilities query for the product name, sent as an APDU (HID's sample code
    /// `ReaderCapabilities.cs`): the vendor envelope `FF 70 07 6B Lc` (`07 6B` is HID's USB vendor
    /// ID) around the DER request `A2 06 A0 04 A0 02 82 00` (get, reader capabilities, product
    /// name), Le `00`. The answer is `BD len 82 len <ASCII name>` and `90 00`.
    public static let hidProductNameProbe: [UInt8] = [0xFF, 0x70, 0x07, 0x6B, 0x08, 0xA2, 0x06, 0xA0, 0x04, 0xA0, 0x02, 0x82, 0x00, 0x00]

    /// The profile a reader's answer to ``hidProductNameProbe`` identifies, if any: a `82` object
    /// naming an OMNIKEY 5022 or 5427.
    public static func recognise(hidProductName answer: [UInt8]) -> ReaderProfile? {
        // BD len 82 len name 90 00: one constructed object holding the product name.
        guard answer.count >= 6, answer.suffix(2) == [0x90, 0x00], answer[0] == 0xBD, answer[2] == 0x82 else { return nil }
        let length = Int(answer[3])
        guard 4 + length <= answer.count - 2 else { return nil }
        let name = String(decoding: answer[4..<(4 + length)], as: UTF8.self).uppercased()
        if name.contains("5022") { return .omnikey5022 }
        if name.contains("5427") { return .omnikey5427 }
        return nil
    }
}
