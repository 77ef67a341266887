/// Identiv uTrust 3700 F firmware, from Identiv's *Reference Manual for the CLOUD 370x F
/// Contactless Desktop Readers* v1.0 (sections cited below); status words from the table its
/// sibling manuals share (SCL3711 manual §6.2.1.4): `62 82` end reached before Le, `67 00` wrong
/// length, `69 81` command not supported, `69 82` security status not satisfied, `6A 81` function
/// not supported, `6A 82` block does not exist, `6B 00` wrong P1 P2, `6C xx` wrong Le.
extension EmulatedReaderFront {
    /// One APDU to a uTrust 3700 F. Class `FF`: Get Data (the manual's GET UID), Read Binary
    /// (§6.2.1), Update Binary, the FeliCa commands (§6.2.13–6.2.18); any other class-`FF` instruction is
    /// `6A 81`. Other classes go to an ISO-DEP card, up to 1,024 bytes (its CCID descriptor's
    /// 1,034-byte messages).
    mutating func uTrust(_ apdu: [UInt8]) -> [UInt8] {
        let command: SimCommandAPDU
        switch readerCommand(apdu) {
        case .answered(let answer): return answer
        case .forReader(let parsed): command = parsed
        }
        switch command.ins {
        case 0xCA: return getData(command)
        case 0xB0: return uTrustRead(command)
        case 0xD6: return uTrustWrite(command)
        case 0x40, 0x42, 0x44, 0x46, 0x48, 0x4A: return uTrustFeliCa(command)
        default: return ReaderStatusWord.notSupported
        }
    }

    /// Read Binary (§6.2.1): the reader answers the whole block whatever Le asks — for MIFARE
    /// Ultralight and NTAG one 4-byte page. Update Binary: one page.
    private mutating func uTrustRead(_ command: SimCommandAPDU) -> [UInt8] {
        isType2 ? vendorPageRead(command, length: 4) : ReaderStatusWord.notSupported
    }

    private mutating func uTrustWrite(_ command: SimCommandAPDU) -> [UInt8] {
        isType2 ? vendorPageWrite(command) : ReaderStatusWord.notSupported
    }
}
