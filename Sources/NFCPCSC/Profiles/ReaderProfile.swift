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
    public static func recognise(readerName: String) -> ReaderProfile? {
        readerName.uppercased().hasPrefix("ACS ACR122") ? .acr122u : nil
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
}
