extension StatusWord {
    /// What the status word means, in words: the specific meaning where ISO/IEC 7816-4:2020
    /// §5.6 Tables 5 and 6 give one, else the meaning of its SW1 group; interindustry groups only
    /// (a proprietary SW1 such as `91`, MIFARE DESFire's wrapped status, says so).
    public var meaning: String {
        if let specific = Self.specificMeanings[rawValue] { return specific }
        switch sw1 {
        case 0x61: return "normal processing: \(bytesAvailable ?? 0) more bytes available (GET RESPONSE)"
        case 0x6C: return "wrong Le: \(correctLength ?? 0) bytes available"
        case 0x63 where sw2 & 0xF0 == 0xC0:
            return "warning, memory changed: counter \(sw2 & 0x0F) (a verification: \(sw2 & 0x0F) tries left)"
        case 0x62: return "warning, memory unchanged"
        case 0x63: return "warning, memory changed"
        case 0x64: return "execution error, memory unchanged"
        case 0x65: return "execution error, memory changed"
        case 0x66: return "security-related issue"
        case 0x67: return "wrong length"
        case 0x68: return "function in CLA not supported"
        case 0x69: return "command not allowed"
        case 0x6A: return "wrong parameters P1-P2"
        case 0x6B: return "wrong parameters P1-P2"
        case 0x6D: return "instruction code not supported or invalid"
        case 0x6E: return "class not supported"
        case 0x6F: return "no precise diagnosis"
        default: return "not an ISO/IEC 7816-4 status (proprietary)"
        }
    }

    /// ISO/IEC 7816-4:2020 Table 6, the status words with a meaning of their own.
    private static let specificMeanings: [UInt16: String] = [
        0x9000: "normal processing",
        0x6200: "warning, memory unchanged: no information given",
        0x6281: "warning: part of the returned data may be corrupted",
        0x6282: "warning: end of file or record reached before reading Ne bytes",
        0x6283: "warning: selected file deactivated",
        0x6284: "warning: file control information not formatted as 7816-4 says",
        0x6285: "warning: selected file in termination state",
        0x6286: "warning: no input data available from a sensor on the card",
        0x6300: "warning, memory changed: no information given",
        0x6381: "warning: file filled up by the last write",
        0x6400: "execution error, memory unchanged",
        0x6401: "execution error: immediate response required by the card",
        0x6500: "execution error, memory changed: no information given",
        0x6581: "execution error: memory failure",
        0x6700: "wrong length",
        0x6800: "function in CLA not supported",
        0x6881: "logical channel not supported",
        0x6882: "secure messaging not supported",
        0x6883: "last command of the chain expected",
        0x6884: "command chaining not supported",
        0x6900: "command not allowed: no information given",
        0x6981: "command incompatible with file structure",
        0x6982: "security status not satisfied",
        0x6983: "authentication method blocked",
        0x6984: "reference data not usable",
        0x6985: "conditions of use not satisfied",
        0x6986: "command not allowed (no current EF)",
        0x6987: "expected secure messaging data objects missing",
        0x6988: "incorrect secure messaging data objects",
        0x6A00: "wrong parameters P1-P2: no information given",
        0x6A80: "incorrect parameters in the command data field",
        0x6A81: "function not supported",
        0x6A82: "file or application not found",
        0x6A83: "record not found",
        0x6A84: "not enough memory space in the file",
        0x6A85: "Nc inconsistent with TLV structure",
        0x6A86: "incorrect parameters P1-P2",
        0x6A87: "Nc inconsistent with parameters P1-P2",
        0x6A88: "referenced data or reference data not found",
        0x6A89: "file already exists",
        0x6A8A: "DF name already exists",
        0x6B00: "wrong parameters P1-P2",
        0x6D00: "instruction code not supported or invalid",
        0x6E00: "class not supported",
        0x6F00: "no precise diagnosis",
    ]
}
