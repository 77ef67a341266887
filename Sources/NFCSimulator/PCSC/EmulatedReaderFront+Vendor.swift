// What the vendor profiles (ACS PC/SC 2.0, OMNIKEY, uTrust) share: the APDU preamble, and the
// OMNIKEY's and uTrust's one-page Type 2 reads and writes, which fail with the same words.

/// What the vendor profiles (ACS PC/SC 2.0, OMNIKEY, uTrust) do alike before their own commands.
enum VendorDispatch {
    /// Answered already: too long for the reader, malformed, or passed to the card.
    case answered([UInt8])
    /// A class-`FF` command for the reader itself.
    case forReader(SimCommandAPDU)
}

extension EmulatedReaderFront {
    /// An APDU longer than the reader's longest (``EmulatedReaderProfile``'s CCID message size) or
    /// malformed is `67 00`; any class but `FF` goes to an ISO-DEP card as it is (a storage tag has
    /// nothing to answer it: `6E 00`); a class-`FF` command is left to the profile.
    mutating func readerCommand(_ apdu: [UInt8]) -> VendorDispatch {
        guard apdu.count <= profile.maximumAPDU, let command = try? SimCommandAPDU(bytes: apdu) else {
            return .answered(ReaderStatusWord.wrongLength)
        }
        guard command.cla == 0xFF else {
            return .answered(tag.speaksISODEP ? passThrough(apdu) : ReaderStatusWord.classNotSupported)
        }
        return .forReader(command)
    }

    /// Read Binary of one Type 2 READ (`30 page`, NFC Forum T2T §5.1) handing back its first
    /// `length` bytes whatever Le asks (the OMNIKEY all 16, the uTrust one 4-byte page): P1 other
    /// than `00` and a page the tag refuses are `6A 82`, silence `64 00`.
    mutating func vendorPageRead(_ command: SimCommandAPDU, length: Int) -> [UInt8] {
        guard command.data.isEmpty, command.ne != nil else { return ReaderStatusWord.wrongLength }
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        switch transmit([0x30, command.p2]).reply {
        case .bytes(let data) where data.count >= length: return Array(data.prefix(length)) + ReaderStatusWord.success
        case .mute:
            reselect()
            return Self.vendorNoAnswer
        default:
            reselect()
            return ReaderStatusWord.outOfRange
        }
    }

    /// Update Binary of one 4-byte Type 2 page (WRITE `A2`, T2T §5.2; `67 00` for another Lc): a
    /// page the tag refuses is `69 82` (security status not satisfied), silence `64 00`.
    mutating func vendorPageWrite(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.p1 == 0x00 else { return ReaderStatusWord.outOfRange }
        guard command.data.count == 4 else { return ReaderStatusWord.wrongLength }
        switch transmit([0xA2, command.p2] + command.data).reply {
        case .ack: return ReaderStatusWord.success
        case .mute:
            reselect()
            return Self.vendorNoAnswer
        default:
            reselect()
            return [0x69, 0x82]
        }
    }

    /// `64 00`: the card did not answer (HID's "no response"; the SCM family's "memory unchanged").
    static let vendorNoAnswer: [UInt8] = [0x64, 0x00]
}
