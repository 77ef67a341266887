/// The ACS ACR122U's firmware, from ACS *API-ACR122U* v2.04 (sections cited below) and NXP's
/// *PN532 User Manual* UM0701-02 for the PN532 behind its Direct Transmit. Observed behaviour
/// that the manual does not state is marked as such, with where it was reported.
extension EmulatedReaderFront {
    /// What Get Firmware Version answers: ten ASCII bytes and no status word (§6.3).
    static let acr122uFirmware: [UInt8] = Array("ACR122U215".utf8)
    /// The PN532's GetFirmwareVersion answer: IC 32, version 1.6, support 07 (UM0701-02 §7.2.2).
    static let pn532Firmware: [UInt8] = [0x32, 0x01, 0x06, 0x07]

    /// One APDU to an ACR122U. Class `FF` is the reader's; any other class goes to an ISO-DEP card
    /// as a short APDU (the reader's CCID descriptor announces short-APDU exchange: an extended
    /// one is `67 00`); a storage tag has nothing to answer it (`63 00`).
    mutating func acr122u(_ apdu: [UInt8]) -> [UInt8] {
        if apdu == [0xFF, 0x00, 0x48, 0x00, 0x00] { return Self.acr122uFirmware }
        guard let command = try? SimCommandAPDU(bytes: apdu) else { return ReaderStatusWord.failed }
        guard command.cla == 0xFF else {
            guard tag.speaksISODEP else { return ReaderStatusWord.failed }
            return command.isExtended ? ReaderStatusWord.wrongLength : passThrough(apdu)
        }
        switch (command.ins, command.p1) {
        case (0x00, 0x00) where command.p2 == 0x00 && !command.data.isEmpty:
            return directTransmit(command.data)
        case (0x00, 0x40):
            return ledAndBuzzer(command)
        case (0xCA, _):
            // Get Data (§4.1): 90 00, 63 00 or 6A 81 (the ATS of a card without one).
            let answer = getData(command)
            return answer.suffix(2) == ReaderStatusWord.success || answer == ReaderStatusWord.notSupported
                ? answer : ReaderStatusWord.failed
        case (0xB0, 0x00):
            // Read Binary (§5.3): at most 16 bytes, MIFARE Ultralight pages read four at a time.
            guard !storageCommandsBlocked, isType2, let ne = command.ne, (1...16).contains(ne), !command.asksForMaximum else {
                return ReaderStatusWord.failed
            }
            let answer = type2Read(command)
            return answer.suffix(2) == ReaderStatusWord.success ? answer : ReaderStatusWord.failed
        case (0xD6, 0x00):
            // Update Binary (§5.4): one Ultralight page of 4 bytes.
            guard !storageCommandsBlocked, isType2, command.data.count == 4 else { return ReaderStatusWord.failed }
            return type2Write(command)
        default:
            return ReaderStatusWord.failed
        }
    }

    /// Whether the tag is a Type 2 tag (MIFARE Ultralight, NTAG): type A, no ATS, not Type 1.
    var isType2: Bool {
        if case .iso14443A(let a) = tag.parameters { return a.ats == nil && !a.isType1Platform }
        return false
    }

    /// Direct Transmit (§6.1): `FF 00 00 00 Lc` and a PN532 command (`D4` and its code), answered
    /// with the PN532's answer (`D5`, code + 1, its data) and `90 00`. Carried here:
    /// GetFirmwareVersion (`02`), InDataExchange (`40`) and InCommunicateThru (`42`) with the card
    /// the reader activated. A payload that is not a host command gets no answer from the PN532
    /// (`63 00`, "operation failed"); a PN532 command this emulation does not carry answers
    /// `63 7F`, as libnfc's `acr122_usb` driver reads the reader's report of a PN532 error frame.
    mutating func directTransmit(_ payload: [UInt8]) -> [UInt8] {
        guard payload.count >= 2, payload[0] == 0xD4 else { return ReaderStatusWord.failed }
        let code = payload[1]
        let parameters = Array(payload.dropFirst(2))
        let answer: [UInt8]
        switch code {
        case 0x02: answer = Self.pn532Firmware
        case 0x40 where parameters.count >= 2: answer = dataExchange(target: parameters[0], Array(parameters.dropFirst()))
        case 0x42 where !parameters.isEmpty: answer = communicateThru(parameters)
        default: return [0x63, 0x7F]
        }
        return [0xD5, code &+ 1] + answer + ReaderStatusWord.success
    }

    /// InDataExchange (UM0701-02 §7.3.8) with target 1, the card the reader activated (another
    /// number: error `27`, not acceptable in this context). A Type 2 tag takes the native command,
    /// its 4-bit ACK being success with no data and a NAK MIFARE error `14`, as is a MIFARE
    /// authentication (`60`/`61`) an Ultralight cannot run; FeliCa takes the frame with its LEN
    /// byte; an ISO-DEP card takes an APDU. Status `01`: the card did not answer.
    private mutating func dataExchange(target: UInt8, _ data: [UInt8]) -> [UInt8] {
        guard target & 0x3F == 0x01 else { return [0x27] }
        if tag.speaksISODEP {
            let answer = transmit(data)
            if case .bytes(let response) = answer.reply { return [0x00] + response }
            return [0x01]
        }
        if case .felica = tag.parameters { return felica(data) }
        guard isType2, let first = data.first else { return [0x01] }
        if first == 0x60 || first == 0x61 { return [0x14] }
        if first == 0x1B { storageCommandsBlocked = true }
        switch transmit(data).reply {
        case .bytes(let response): return [0x00] + response
        case .ack: return [0x00]
        case .nak: return [0x14]
        case .mute: return [0x01]
        }
    }

    /// InCommunicateThru (UM0701-02 §7.3.9): the frame to the card as it is, the PN532 adding and
    /// checking CRC_A. A 4-bit ACK or NAK carries no CRC, so the PN532 reports status `02` (CRC
    /// error) with no data — a successful WRITE so too, as nfc-pcsc's MIFARE Ultralight C example
    /// observes on the ACR122U. A FeliCa frame keeps its LEN byte. An ISO-DEP or Type 1 card does
    /// not answer a bare frame (status `01`).
    ///
    /// Observed, not in the manual (nfc-pcsc issue 36): after a PWD_AUTH through Direct Transmit,
    /// Read and Update Binary fail with `63 00` until the card is powered again.
    private mutating func communicateThru(_ frame: [UInt8]) -> [UInt8] {
        if case .felica = tag.parameters { return felica(frame) }
        guard isType2 else { return [0x01] }
        if frame.first == 0x1B { storageCommandsBlocked = true }
        switch transmit(frame).reply {
        case .bytes(let response): return [0x00] + response
        case .ack, .nak: return [0x02]
        case .mute: return [0x01]
        }
    }

    /// A FeliCa frame with its LEN byte (JIS X 6319-4 §6.2); a LEN that disagrees gets no answer.
    private mutating func felica(_ frame: [UInt8]) -> [UInt8] {
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return [0x01] }
        guard case .bytes(let response) = transmit(Array(frame.dropFirst())).reply else { return [0x01] }
        return [0x00, UInt8(truncatingIfNeeded: response.count + 1)] + response
    }

    /// Bi-color LED and buzzer control (§6.2): `FF 00 40 P2 04 T1 T2 repetitions buzzer`. P2 bit 0
    /// is the final red state and bit 2 whether to update it, bits 1 and 3 the same for green;
    /// the answer is `90` and the LED state (bit 0 red, bit 1 green). The blinking the other bits
    /// and T1, T2 ask for is not modelled.
    private mutating func ledAndBuzzer(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.data.count == 4 else { return ReaderStatusWord.failed }
        let p2 = command.p2
        if p2 & 0x04 != 0 { ledState = (ledState & ~0x01) | (p2 & 0x01) }
        if p2 & 0x08 != 0 { ledState = (ledState & ~0x02) | (p2 & 0x02) }
        return [0x90, ledState]
    }
}
