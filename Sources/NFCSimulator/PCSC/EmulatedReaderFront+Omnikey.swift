/// HID OMNIKEY 5022 and 5427 CK firmware, from what HID publishes for developers: its sample code
/// *HID-OMNIKEY-Sample-Codes* (classes named below) and the CCID driver's descriptor of the 5022.
/// HID's reference manuals are not public in full; where the samples are silent, the choice is
/// said.
extension EmulatedReaderFront {
    /// HID's status words (`SEProcessorCommands`' table) beyond the ones ``vendorPageRead(_:length:)``
    /// and ``vendorPageWrite(_:)`` share with the uTrust (`64 00` no response, `69 82` block not
    /// authenticated, `6A 82` illegal block number): `6F 00` unknown error.
    enum OmnikeyStatus {
        static let notAuthenticated: [UInt8] = [0x69, 0x82]
        static let unknownError: [UInt8] = [0x6F, 0x00]
        /// An instruction the samples never send (`FF C2` among them): ISO/IEC 7816-4's "instruction
        /// not supported" (HID's table has no word of its own).
        static let unknownInstruction: [UInt8] = [0x6D, 0x00]
    }

    /// The product name the capabilities envelope reports.
    var omnikeyProductName: String { profile == .omnikey5427 ? "OMNIKEY 5427 CK" : "OMNIKEY 5022 Smart Card Reader" }

    /// One APDU to an OMNIKEY. Class `FF`: Get Data (`FF CA`), Read Binary (`FF B0`), Update Binary
    /// (`FF D6`) and the vendor envelope (`FF 70 07 6B`, HID's USB vendor ID); other classes go to an
    /// ISO-DEP card, up to 510 bytes (the 5022's CCID descriptor: 520-byte messages).
    mutating func omnikey(_ apdu: [UInt8]) -> [UInt8] {
        let command: SimCommandAPDU
        switch readerCommand(apdu) {
        case .answered(let answer): return answer
        case .forReader(let parsed): command = parsed
        }
        switch command.ins {
        case 0xCA: return getData(command)
        case 0x70 where command.p1 == 0x07 && command.p2 == 0x6B: return omnikeyEnvelope(command.data)
        case 0xB0: return omnikeyRead(command)
        case 0xD6: return omnikeyWrite(command)
        default: return OmnikeyStatus.unknownInstruction
        }
    }

    /// Read Binary (`ContactlessCardCommunication.ReadBinary`): a Type 2 tag answers the 16 bytes
    /// of one READ whatever Le asks, as martinpaljak/nfc4pc's `NDEF.java` records of the 5022; an
    /// ISO/IEC 15693 tag its blocks (Le `00`: one). A refused page is `6A 82`, silence `64 00`.
    private mutating func omnikeyRead(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.data.isEmpty, command.ne != nil else { return ReaderStatusWord.wrongLength }
        switch tag.parameters {
        case .iso14443A where isType2:
            return vendorPageRead(command, length: Self.type2ReadLength)
        case .iso15693:
            return omnikeyStatus(iso15693Read(command), write: false)
        default:
            return ReaderStatusWord.notSupported
        }
    }

    /// Update Binary: one Type 2 page of 4 bytes, or one ISO/IEC 15693 block. A page the tag refuses
    /// is `69 82`, silence `64 00`.
    private mutating func omnikeyWrite(_ command: SimCommandAPDU) -> [UInt8] {
        switch tag.parameters {
        case .iso14443A where isType2:
            return vendorPageWrite(command)
        case .iso15693:
            return omnikeyStatus(iso15693Write(command), write: true)
        default:
            return ReaderStatusWord.notSupported
        }
    }

    /// The generic ISO/IEC 15693 answer in HID's words: a refusal (`63 00`) becomes `69 82` for a
    /// write and `6F 00` for a read; a block beyond the end (`6A 82`) stays.
    private func omnikeyStatus(_ answer: [UInt8], write: Bool) -> [UInt8] {
        guard answer == ReaderStatusWord.failed else { return answer }
        return write ? OmnikeyStatus.notAuthenticated : OmnikeyStatus.unknownError
    }

    /// HID's reader-capabilities envelope (`ReaderCapabilities`): `FF 70 07 6B Lc` around
    /// `A2 len A0 len A0 len <tag> 00` (get, reader capabilities, one item), answered `BD len <tag>
    /// len <value>` and `90 00`: `82` the product name, `85` the firmware version (major, minor,
    /// revision), `8F` the vendor name. An item the firmware does not have is `9E 02 00 04` (TLV not
    /// found), a request it cannot parse `9E 02 00 05` (malformed), both still with `90 00`.
    private func omnikeyEnvelope(_ request: [UInt8]) -> [UInt8] {
        let malformed: [UInt8] = [0x9E, 0x02, 0x00, 0x05] + ReaderStatusWord.success
        guard request.count == 8, request[0] == 0xA2, request[1] == 6, request[2] == 0xA0, request[3] == 4, request[4] == 0xA0,
            request[5] == 2, request[7] == 0x00
        else { return malformed }
        let value: [UInt8]
        switch request[6] {
        case 0x82: value = Array(omnikeyProductName.utf8)
        case 0x85: value = [0x02, 0x00, 0x00]
        case 0x8F: value = Array("HID Global".utf8)
        default: return [0x9E, 0x02, 0x00, 0x04] + ReaderStatusWord.success
        }
        return [0xBD, UInt8(value.count + 2), request[6], UInt8(value.count)] + value + ReaderStatusWord.success
    }
}
