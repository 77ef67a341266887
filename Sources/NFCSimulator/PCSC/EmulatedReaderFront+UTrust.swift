/// Identiv uTrust 3700 F firmware, from Identiv's *Reference Manual for the CLOUD 370x F
/// Contactless Desktop Readers* v1.0 (sections cited below); status words from the table its
/// sibling manuals share (SCL3711 manual §6.2.1.4): `62 82` end reached before Le, `67 00` wrong
/// length, `69 81` command not supported, `69 82` security status not satisfied, `6A 81` function
/// not supported, `6A 82` block does not exist, `6B 00` wrong P1 P2, `6C xx` wrong Le.
extension EmulatedReaderFront {
    /// A card that does not answer: `64 00` (the word the SCM family gives for "memory unchanged";
    /// the manual has none for silence).
    static let uTrustNoAnswer: [UInt8] = [0x64, 0x00]

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
    /// Ultralight and NTAG one 4-byte page. A page the tag refuses is `6A 82` (block does not
    /// exist), silence `64 00`.
    private mutating func uTrustRead(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.data.isEmpty, command.ne != nil else { return ReaderStatusWord.wrongLength }
        guard isUltralightFamily else { return ReaderStatusWord.notSupported }
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        switch transmit([0x30, command.p2]).reply {
        case .bytes(let data) where data.count >= 4: return Array(data.prefix(4)) + ReaderStatusWord.success
        case .mute:
            reselect()
            return Self.uTrustNoAnswer
        default:
            reselect()
            return ReaderStatusWord.outOfRange
        }
    }

    /// Update Binary: one 4-byte page (`67 00` for another Lc). A page the tag refuses is
    /// `69 82`, silence `64 00`.
    private mutating func uTrustWrite(_ command: SimCommandAPDU) -> [UInt8] {
        guard isUltralightFamily else { return ReaderStatusWord.notSupported }
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        guard command.data.count == 4 else { return ReaderStatusWord.wrongLength }
        switch transmit([0xA2, command.p2] + command.data).reply {
        case .ack: return ReaderStatusWord.success
        case .mute:
            reselect()
            return Self.uTrustNoAnswer
        default:
            reselect()
            return [0x69, 0x82]
        }
    }

    /// Whether the tag is a MIFARE Ultralight or NTAG (type A, no ATS, not Type 1).
    private var isUltralightFamily: Bool {
        if case .iso14443A(let a) = tag.parameters { return a.ats == nil && !a.isType1Platform }
        return false
    }
}
