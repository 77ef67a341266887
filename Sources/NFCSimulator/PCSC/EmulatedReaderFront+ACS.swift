/// ACS's PC/SC 2.0 readers, the ACR1252U and ACR1552U, from ACS's *ACM1252U-Y3 Reference Manual*
/// v1.03 (the OEM module of the ACR1252U; sections cited below) and, for the ACR1552U, what
/// published traces of it show. Their transparent session is PC/SC Part 3's (the generic front's,
/// ``session(_:)``) with Switch Protocol added; their pseudo-APDUs fail with `63 00`.
extension EmulatedReaderFront {
    /// One APDU to an ACR1252U or ACR1552U. Class `FF`: Get Data, Read and Update Binary, the
    /// transparent session (`FF C2`, P2 `02` Switch Protocol included); other class-`FF`
    /// instructions `6A 81`. Other classes go to an ISO-DEP card, up to the reader's longest APDU
    /// (512 bytes on the ACR1252U, 506 on the ACR1552U: their CCID descriptors' messages less the
    /// 10-byte header).
    mutating func acsTransparent(_ apdu: [UInt8]) -> [UInt8] {
        let command: SimCommandAPDU
        switch readerCommand(apdu) {
        case .answered(let answer): return answer
        case .forReader(let parsed): command = parsed
        }
        switch command.ins {
        case 0xC2 where command.p1 == 0x00 && command.p2 == 0x02: return switchProtocol(command.data)
        case 0xC2: return session(command)
        case 0xCA:
            // Get Data: 90 00, 62 82, 6C XX, 6A 81 (no ATS); any other failure 63 00.
            let answer = getData(command)
            let sw = answer.suffix(2)
            return sw.first == 0x90 || sw.first == 0x62 || sw.first == 0x6C || Array(sw) == ReaderStatusWord.notSupported
                ? answer : ReaderStatusWord.failed
        case 0xB0: return acsStorage(command, write: false)
        case 0xD6: return acsStorage(command, write: true)
        default: return ReaderStatusWord.notSupported
        }
    }

    /// Read Binary (§5.2.4.3) and Update Binary (§5.2.4.4): on an Ultralight or NTAG, Le a multiple
    /// of 4 up to 16 and one 4-byte page written; on the ACR1552U, ISO/IEC 15693 blocks. The only
    /// failure word is `63 00`.
    private mutating func acsStorage(_ command: SimCommandAPDU, write: Bool) -> [UInt8] {
        let answer: [UInt8]
        switch tag.parameters {
        case .iso14443A(let a) where a.ats == nil && !a.isType1Platform:
            if !write {
                guard let ne = command.ne, !command.asksForMaximum, ne % 4 == 0, ne <= 16 else { return ReaderStatusWord.failed }
                answer = type2Read(command)
            } else {
                answer = type2Write(command)
            }
        case .iso15693 where profile == .acr1552u:
            answer = write ? iso15693Write(command) : iso15693Read(command)
        default:
            return ReaderStatusWord.failed
        }
        return answer.suffix(2) == ReaderStatusWord.success ? answer : ReaderStatusWord.failed
    }

    /// Switch Protocol (PC/SC Part 3 §3.2.2.1.10; ACM1252U-Y3 §5.2.3): `8F 02 <standard> <layer>`,
    /// standard `00` ISO/IEC 14443 A, `01` B, `02` ISO/IEC 15693 (the ACR1552U only), `03` FeliCa;
    /// layer `02`–`04`. The card in the field is activated again in its own protocol (`C0 03 00
    /// 90 00`); a standard the card does not speak finds no card (`C0 03 01 64 01`), one the reader
    /// lacks or a malformed object is `C0 03 01 6A 81` / `67 00`. Whether the real reader echoes the
    /// `8F` object is not published; none is sent.
    private mutating func switchProtocol(_ data: [UInt8]) -> [UInt8] {
        guard let objects = PCSCDataObject.parse(data), objects.count == 1, objects[0].tag == 0x8F else {
            return Self.objectError(1, ReaderStatusWord.notSupported)
        }
        let value = objects[0].value
        guard value.count == 2, (0x02...0x04).contains(value[1]) else { return Self.objectError(1, ReaderStatusWord.wrongLength) }
        let standard = value[0]
        guard standard <= 0x03, standard != 0x02 || profile == .acr1552u else { return Self.objectError(1, ReaderStatusWord.notSupported) }
        let own: UInt8 =
            switch tag.parameters {
            case .iso14443A: 0x00
            case .iso14443B: 0x01
            case .iso15693: 0x02
            case .felica: 0x03
            }
        guard standard == own else { return Self.objectError(1, ReaderStatusWord.noResponse) }
        switchFieldOn()
        return Self.encode([Self.noError])
    }
}
