import NFCBytes
import NFCTransport

/// Works out a `TargetInfo` for the card in a reader from its ATR and a few pseudo-APDUs.
///
/// PC/SC hides the activation: ATQA, SAK and DSFID never reach the application, so they are
/// synthesised from what the ATR says (documented in docs/pcsc.md). The UID comes from
/// GET DATA; a FeliCa card's PMm and system code from a Polling sent in a transparent session
/// when the reader offers one, through the ACR122U's Direct Transmit, or the uTrust's `FF 40`.
struct TargetIdentification {
    /// What the reader is.
    var profile: ReaderProfile = .generic
    /// Sends one APDU to the reader and returns its answer (data + SW).
    let transmit: ([UInt8]) throws(TransportError) -> [UInt8]

    /// What the card is, with `handle` as its target handle.
    func identify(atr: [UInt8], handle: UInt64) throws(TransportError) -> (TargetInfo, PCSCTagKind) {
        let kind = try PCSCTagKind(atr: ContactlessATR(atr: atr))
        var identifier: [UInt8] = []
        if case .contactCard = kind {
            // No contactless reader in between to answer GET DATA: no UID.
        } else {
            identifier = try uid(required: !kind.speaksISODEP)
        }
        let parameters: TargetInfo.Parameters
        switch kind {
        case .storageA(let cardName):
            let (atqa, sak) = Self.typeAActivation(cardName: cardName)
            parameters = .iso14443A(.init(atqa: atqa, sak: sak))
        case .storageB:
            parameters = .iso14443B(.init(applicationData: [], protocolInfo: []))
        case .iso15693:
            // An ISO/IEC 15693 UID's most significant byte is E0 (§4.1); readers differ in the
            // order they return it, and `TargetInfo` holds it most significant byte first.
            if identifier.last == 0xE0, identifier.first != 0xE0 { identifier.reverse() }
            parameters = .iso15693(.init(dsfid: 0))
        case .felica:
            let (idm, pmm, systemCode) = polling()
            if let idm { identifier = idm }
            parameters = .felica(.init(pmm: pmm ?? [UInt8](repeating: 0, count: 8), systemCode: systemCode ?? 0xFFFF))
        case .contactCard(let historical):
            parameters = .iso14443A(.init(atqa: 0x0004, sak: 0x20, ats: AnswerToSelect(historicalBytes: historical)))
        case .isoDEP(let historical):
            // A Type B card's ATR carries 8 bytes in place of historical bytes (PC/SC Part 3
            // §3.1.3.2.3.2: application data, protocol info, MBLI); a card whose reader answers
            // GET DATA for the ATS is Type A, and so is any other length.
            let atsAnswered = (try? answer(PseudoAPDU.getATSHistoricalBytes))?.sw == 0x9000
            if atsAnswered || historical.count != 8 {
                parameters = .iso14443A(.init(atqa: 0x0004, sak: 0x20, ats: AnswerToSelect(historicalBytes: historical)))
            } else {
                parameters = .iso14443B(.init(applicationData: Array(historical[0..<4]), protocolInfo: Array(historical[4..<7])))
            }
        }
        return (TargetInfo(handle: handle, identifier: identifier, parameters: parameters), kind)
    }

    private func answer(_ apdu: [UInt8]) throws(TransportError) -> (data: [UInt8], sw: UInt16) {
        try PseudoAPDU.split(transmit(apdu), doing: "GET DATA")
    }

    private func uid(required: Bool) throws(TransportError) -> [UInt8] {
        let (data, sw) = try answer(PseudoAPDU.getUID)
        guard sw == 0x9000, !data.isEmpty else {
            if !required { return [] }
            throw TransportError(.protocolViolation, "the reader did not give the tag's UID (GET DATA answered \(String(sw, radix: 16)))")
        }
        return data
    }

    /// Polling (JIS X 6319-4 §4.4.2.1) for system code FFFF, request code 01 (system code),
    /// one slot, in a transparent session; `nil`s when the reader has none.
    private func polling() -> (idm: [UInt8]?, pmm: [UInt8]?, systemCode: UInt16?) {
        let request: [UInt8] = [0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00]
        if profile == .acr122u {
            let placeholder = TargetInfo(handle: 0, identifier: [], parameters: .felica(.init(pmm: [], systemCode: 0xFFFF)))
            guard let (command, framing) = try? DirectTransmit.plan(Array(request.dropFirst()), target: placeholder),
                let apdu = DirectTransmit.wrap(command), let raw = try? transmit(apdu),
                let answer = try? DirectTransmit.answer(raw, to: command, framing: framing, reader: "the reader")
            else { return (nil, nil, nil) }
            return Self.pollingAnswer([UInt8(answer.count + 1)] + answer)
        }
        if profile == .utrust3700f {
            // Polling as the uTrust's FF 40 (``SCMFeliCa``): IDm PMm SC, to which LEN and the
            // response code are added.
            guard let apdu = try? SCMFeliCa.apdu(for: Array(request.dropFirst()), reader: "the reader"), let raw = try? transmit(apdu),
                let frame = try? SCMFeliCa.answer(raw, to: Array(request.dropFirst()), reader: "the reader")
            else { return (nil, nil, nil) }
            return Self.pollingAnswer([UInt8(truncatingIfNeeded: frame.count + 1)] + frame)
        }
        guard profile.capabilities.contains(.transparentSession), let started = try? answer(PseudoAPDU.startTransparentSession),
            started.sw == 0x9000
        else { return (nil, nil, nil) }
        defer { _ = try? transmit(PseudoAPDU.endTransparentSession) }
        guard let apdu = PseudoAPDU.transceive(request, timeout: .milliseconds(20)),
            let raw = try? answer(apdu), raw.sw == 0x9000,
            case .frame(let frame)? = try? TransparentExchangeAnswer(raw.data)
        else { return (nil, nil, nil) }
        return Self.pollingAnswer(frame)
    }

    /// IDm, PMm and system code from a Polling answer with its LEN byte (`LEN 01 IDm PMm [SC]`).
    static func pollingAnswer(_ frame: [UInt8]) -> (idm: [UInt8]?, pmm: [UInt8]?, systemCode: UInt16?) {
        guard frame.count >= 18, frame[1] == 0x01 else { return (nil, nil, nil) }
        let systemCode = frame.count >= 20 ? UInt16(frame[18]) << 8 | UInt16(frame[19]) : nil
        return (Array(frame[2..<10]), Array(frame[10..<18]), systemCode)
    }

    /// ATQA and SAK a Type A storage tag of this PC/SC card name answers (NXP AN10833 table 5;
    /// Type 1 from the Topaz data sheet).
    static func typeAActivation(cardName: UInt16) -> (atqa: UInt16, sak: UInt8) {
        switch cardName {
        case 0x0001: (0x0004, 0x08)  // MIFARE Classic 1K
        case 0x0002: (0x0002, 0x18)  // MIFARE Classic 4K
        case 0x0026: (0x0004, 0x09)  // MIFARE Mini
        case 0x002F, 0x0030: (0x0C00, 0x00)  // Jewel, Topaz: NFC Forum Type 1, no anticollision, no SAK (BCM20203T512 DS Table 7)
        default: (0x0044, 0x00)  // Ultralight family, NTAG
        }
    }
}

/// The kind of tag a contactless ATR names.
enum PCSCTagKind: Hashable {
    case storageA(cardName: UInt16)
    case storageB
    case iso15693
    case felica
    case isoDEP(historicalBytes: [UInt8])
    case contactCard(historicalBytes: [UInt8])

    init(atr: ContactlessATR) throws(TransportError) {
        switch atr {
        case .isoDEP(let historical): self = .isoDEP(historicalBytes: historical)
        case .contact(let historical): self = .contactCard(historicalBytes: historical)
        case .storage(let standard, let cardName):
            switch standard {
            // The ACR122U reports FeliCa and Topaz under standard 03 with ACS's own card names
            // F0 11 (FeliCa 212 kbit/s), F0 12 (424 kbit/s) and F0 04 (Topaz), API-ACR122U §7.3–7.4.
            case 0x03 where cardName == 0xF011 || cardName == 0xF012: self = .felica
            case 0x03 where cardName == 0xF004: self = .storageA(cardName: 0x0030)
            case 0x01...0x03: self = .storageA(cardName: cardName)
            case 0x05...0x07: self = .storageB
            case 0x09...0x0C: self = .iso15693
            case 0x11: self = .felica
            default:
                throw TransportError(.unsupportedCommand, "unknown PC/SC Part 3 standard \(Hex.encode([standard])) in the ATR")
            }
        }
    }

    /// A contact card (no contactless reader in between to ask).
    var isContactCard: Bool {
        if case .contactCard = self { return true }
        return false
    }

    var speaksISODEP: Bool {
        switch self {
        case .isoDEP, .contactCard: true
        default: false
        }
    }
}
