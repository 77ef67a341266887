extension EmulatedReaderFront {
    /// The version the Manage Session version data object reports: major, minor, build.
    static let firmwareVersion: [UInt8] = [0x01, 0x00, 0x00]

    /// `FF C2 00 P2 Lc TLV` (PC/SC Part 3 §3.2.2.1.7): P2 `00` Manage Session, `01` Transparent
    /// Exchange; `02` Switch Protocol is not offered (`6A 81`), other P1 P2 are `6B 00`. A
    /// ``basicReader`` answers every `FF C2` with `6A 81`. A data field that is not a sequence of
    /// data objects (a length running past its end) is `67 00`.
    ///
    /// Errors in a data object are reported, as PC/SC Part 3 describes, in the generic error
    /// status `C0 03 NN SW1 SW2` (NN: the number of the bad object, from 1) with `90 00`; objects
    /// after it are not executed.
    mutating func session(_ command: SimCommandAPDU) -> [UInt8] {
        if basicReader { return ReaderStatusWord.notSupported }
        guard command.p1 == 0x00 else { return ReaderStatusWord.wrongParameters }
        guard command.p2 <= 0x01 else {
            return command.p2 == 0x02 ? ReaderStatusWord.notSupported : ReaderStatusWord.wrongParameters
        }
        guard !command.data.isEmpty, let objects = PCSCDataObject.parse(command.data) else {
            return ReaderStatusWord.wrongLength
        }
        return command.p2 == 0x00 ? manageSession(objects) : transparentExchange(objects)
    }

    /// Manage Session (PC/SC Part 3 §3.2.2.1.8): `80 00` version (answered `80 03` major minor
    /// build), `81 00` start and `82 00` end a transparent session, `83 00` RF off, `84 00` RF on
    /// (the tag powers up and is activated again), `5F 46 04 …` timer (accepted, not needed: the
    /// tags answer at once). Any other object is `6A 81`; a wrong length `67 00`.
    mutating func manageSession(_ objects: [PCSCDataObject]) -> [UInt8] {
        typealias T = PCSCDataObjectTag
        var response: [PCSCDataObject] = []
        for (index, object) in objects.enumerated() {
            let number = index + 1
            switch object.tag {
            case T.version, T.startSession, T.endSession, T.rfOff, T.rfOn:
                guard object.value.isEmpty else { return Self.objectError(number, ReaderStatusWord.wrongLength) }
                switch object.tag {
                case T.version: response.append(PCSCDataObject(tag: T.version, value: Self.firmwareVersion))
                case T.startSession: isInTransparentSession = true
                case T.endSession: isInTransparentSession = false
                case T.rfOff: isFieldOn = false
                default: if !isFieldOn { switchFieldOn() }
                }
            case T.timer:
                guard object.value.count == 4 else { return Self.objectError(number, ReaderStatusWord.wrongLength) }
            default:
                return Self.objectError(number, ReaderStatusWord.notSupported)
            }
        }
        return Self.encode([Self.noError] + response)
    }

    /// Transparent Exchange (PC/SC Part 3 §3.2.2.1.9): `95 L frame` sends the frame to the tag,
    /// as on the air without CRC (the reader adds and checks it): the native command (Type 2), the
    /// request from its flags byte (ISO/IEC 15693), LEN and the command (FeliCa: the reader checks
    /// and strips LEN, and puts it before the answer), an APDU (ISO-DEP, as `TagConnection.transceive`
    /// carries it). The answer is `96 02 00 00` (response status)
    /// and `97 L frame`, preceded by `92 01 04` (4 valid bits) for a 4-bit ACK or NAK, which comes
    /// back as one byte (`0A`, or the NAK code). `5F 46 04 …` (timer) is accepted and ignored.
    ///
    /// A tag that does not answer gives `C0 03 01 64 01` and `90 00` (docs/pcsc.md, whatever the
    /// position of the `95` object). The exchange does not require a transparent session to be open.
    mutating func transparentExchange(_ objects: [PCSCDataObject]) -> [UInt8] {
        typealias T = PCSCDataObjectTag
        var response: [PCSCDataObject] = []
        for (index, object) in objects.enumerated() {
            let number = index + 1
            switch object.tag {
            case T.timer:
                guard object.value.count == 4 else { return Self.objectError(number, ReaderStatusWord.wrongLength) }
            case T.transceive:
                guard !object.value.isEmpty else { return Self.objectError(number, ReaderStatusWord.wrongLength) }
                let status = PCSCDataObject(tag: T.responseStatus, value: [0x00, 0x00])
                switch exchangeFrame(object.value).reply {
                case .bytes(let frame):
                    response += [status, PCSCDataObject(tag: T.responseData, value: withLength(frame))]
                case .ack:
                    response += [Self.fourBits, status, PCSCDataObject(tag: T.responseData, value: [0x0A])]
                case .nak(let code):
                    response += [Self.fourBits, status, PCSCDataObject(tag: T.responseData, value: [code & 0x0F])]
                case .mute:
                    return Self.objectError(1, ReaderStatusWord.noResponse)
                }
            default:
                return Self.objectError(number, ReaderStatusWord.notSupported)
            }
        }
        return Self.encode([Self.noError] + response)
    }

    /// Sends a Transparent Exchange frame to the tag. A FeliCa frame carries its LEN byte, as on
    /// the air (JIS X 6319-4: LEN counts itself and the data; docs/pcsc.md): the reader checks and
    /// strips it, and a frame whose LEN disagrees gets no answer, as the card would give none.
    private mutating func exchangeFrame(_ frame: [UInt8]) -> TagAnswer {
        guard case .felica = tag.parameters else { return transmit(frame) }
        guard frame.count >= 2, Int(frame[0]) == frame.count else { return .mute }
        return transmit(Array(frame.dropFirst()))
    }

    /// A tag's answer as the Transparent Exchange returns it: FeliCa answers with their LEN byte.
    private func withLength(_ frame: [UInt8]) -> [UInt8] {
        guard case .felica = tag.parameters else { return frame }
        return [UInt8(truncatingIfNeeded: frame.count + 1)] + frame
    }

    /// `C0 03 00 90 00`: no error.
    static let noError = PCSCDataObject(tag: PCSCDataObjectTag.genericErrorStatus, value: [0x00, 0x90, 0x00])
    /// `92 01 04`: the last byte of the answer holds 4 valid bits.
    static let fourBits = PCSCDataObject(tag: PCSCDataObjectTag.receiveBitFraming, value: [0x04])

    /// `C0 03 NN SW1 SW2` and `90 00`.
    static func objectError(_ number: Int, _ statusWord: [UInt8]) -> [UInt8] {
        let value = [UInt8(truncatingIfNeeded: min(number, 0xFF))] + statusWord
        return encode([PCSCDataObject(tag: PCSCDataObjectTag.genericErrorStatus, value: value)])
    }

    /// The response data objects and `90 00`.
    static func encode(_ objects: [PCSCDataObject]) -> [UInt8] {
        objects.flatMap(\.bytes) + ReaderStatusWord.success
    }
}
