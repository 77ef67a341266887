/// One thing a PC/SC reader can carry to a tag (``ReaderProfile/capabilities``; the columns of
/// docs/readers.md's matrix).
public enum ReaderCapability: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Type 2 READ and WRITE (as pseudo-APDUs at least).
    case type2ReadWrite
    /// Any Type 2 command frame (FAST_READ, GET_VERSION, READ_SIG, PWD_AUTH).
    case type2NativeCommands
    /// APDUs to ISO-DEP cards (Type 4, authenticators, passports).
    case iso7816
    /// Extended-length APDUs.
    case extendedAPDUs
    /// FeliCa (Type 3) read and write.
    case felica
    /// ISO/IEC 15693 (Type 5) read and write.
    case iso15693
    /// PC/SC Part 3 Manage Session and Transparent Exchange (`FF C2`).
    case transparentSession
    /// A vendor pass-through to the reader's chip (the ACR122U's Direct Transmit).
    case directTransmit

    public static func < (lhs: ReaderCapability, rhs: ReaderCapability) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
