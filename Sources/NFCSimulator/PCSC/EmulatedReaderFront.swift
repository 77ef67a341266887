import NFCTransport

/// A contactless reader's firmware as PC/SC sees it, with one virtual tag in its field: what
/// `nfc emulate --pcsc` puts behind pcscd's vpcd virtual reader (docs/pcsc.md, "Card emulation").
///
/// The front answers the class `FF` pseudo-APDUs of PC/SC Part 3 §3.2.2.1 itself, translating
/// them into the tag's native commands — GET DATA (`FF CA`), READ BINARY (`FF B0`), UPDATE BINARY
/// (`FF D6`), Manage Session and Transparent Exchange (`FF C2`) — and passes every other APDU to
/// an ISO-DEP tag unchanged (the tag's ``VirtualTag/respond(to:context:)`` takes the APDU as its
/// frame). A storage tag answers other classes with `6E 00`.
///
/// No input traps: every APDU, however malformed, gets a status word (see ``ReaderStatusWord``).
public struct EmulatedReaderFront: Sendable {
    /// The tag in the field, with every change the commands made.
    public var tag: any VirtualTag
    /// A generic reader without Manage Session and Transparent Exchange (`FF C2` answers `6A 81`):
    /// clients must use `FF B0`/`FF D6`. (The ACR122U has no transparent session either, but its
    /// own Direct Transmit: ``EmulatedReaderProfile/acr122u``.)
    public var basicReader: Bool
    /// The reader model whose firmware the front answers as (``EmulatedReaderProfile``).
    public let profile: EmulatedReaderProfile
    /// APDUs answered since the front was made.
    public private(set) var commandCount = 0
    /// Whether the last APDU changed the tag's non-volatile memory (``TagAnswer/writesMemory``
    /// of any command it caused): the caller saves the tag then.
    public private(set) var lastCommandWroteMemory = false
    /// Whether the reader slot is powered (vpcd power on or reset since the last power off).
    public private(set) var isPowered = false
    /// Whether the RF field is on (a Manage Session `83 00` turns it off, `84 00` on again).
    public internal(set) var isFieldOn = false
    /// Whether a transparent session is open (Manage Session `81 00` … `82 00`).
    public internal(set) var isInTransparentSession = false
    /// ACR122U: READ and UPDATE BINARY fail once a PWD_AUTH went through Direct Transmit, until
    /// the card is powered again (see ``EmulatedReaderProfile/acr122u``).
    public internal(set) var storageCommandsBlocked = false
    /// ACR122U: the LED state its LED and buzzer command sets (bit 0 red, bit 1 green).
    public internal(set) var ledState: UInt8 = 0

    /// What the front tells the tag about each exchange: 106 kbit/s and a 256-byte FSD.
    var context = ExchangeContext()

    /// A front holding `tag`, unpowered with the field off until ``powerOn()``; a full reader unless
    /// `basicReader`, answering as `profile`'s firmware does.
    public init(tag: any VirtualTag, basicReader: Bool = false, profile: EmulatedReaderProfile = .generic) {
        self.tag = tag
        self.basicReader = basicReader
        self.profile = profile
    }

    /// The ATR the reader presents for the tag (``ContactlessReaderATR``).
    public var atr: [UInt8] { ContactlessReaderATR.atr(for: tag, profile: profile) }

    /// vpcd power on or reset: the reader switches its field on, and the tag powers up and is
    /// activated (anticollision and SELECT, RATS for ISO-DEP; inventory or polling), as a reader
    /// does with a card that enters a new field. Any transparent session ends.
    public mutating func powerOn() {
        isPowered = true
        isInTransparentSession = false
        storageCommandsBlocked = false
        switchFieldOn()
    }

    /// vpcd power off: the field goes off and any transparent session ends.
    public mutating func powerOff() {
        isPowered = false
        isFieldOn = false
        isInTransparentSession = false
    }

    /// Answers one command APDU with the response APDU (data and status word, never empty).
    ///
    /// An APDU arriving while the slot is unpowered powers it first (pcscd always powers the card
    /// before sending any, so this only matters to direct callers).
    public mutating func respond(to apdu: [UInt8]) -> [UInt8] {
        commandCount += 1
        lastCommandWroteMemory = false
        if !isPowered { powerOn() }
        switch profile {
        case .acr122u: return acr122u(apdu)
        case .acr1252u, .acr1552u: return acsTransparent(apdu)
        case .omnikey5022, .omnikey5427: return omnikey(apdu)
        case .utrust3700f: return uTrust(apdu)
        case .generic: break
        }
        guard apdu.count >= 4 else { return ReaderStatusWord.wrongLength }
        if apdu[0] == 0xFF { return pseudoAPDU(apdu) }
        guard tag.speaksISODEP else { return ReaderStatusWord.classNotSupported }
        return passThrough(apdu)
    }

    // MARK: Dispatch

    /// A class `FF` APDU (PC/SC Part 3 §3.2.2.1): INS first (`68 00` for one the reader does not
    /// know), then the APDU's length fields (`67 00` when they do not add up).
    private mutating func pseudoAPDU(_ apdu: [UInt8]) -> [UInt8] {
        let known: Set<UInt8> = [0xCA, 0xB0, 0xD6, 0xC2]
        guard known.contains(apdu[1]) else { return ReaderStatusWord.unknownInstruction }
        guard let command = try? SimCommandAPDU(bytes: apdu) else { return ReaderStatusWord.wrongLength }
        switch command.ins {
        case 0xCA: return getData(command)
        case 0xB0: return readBinary(command)
        case 0xD6: return updateBinary(command)
        default: return session(command)
        }
    }

    /// An APDU for an ISO-DEP tag, passed on unchanged; the card's response comes back as it is.
    /// A card that does not answer (no model does) gives `64 01`, no response.
    mutating func passThrough(_ apdu: [UInt8]) -> [UInt8] {
        let answer = transmit(apdu)
        if case .bytes(let response) = answer.reply, response.count >= 2 { return response }
        return ReaderStatusWord.noResponse
    }

    /// READ BINARY (PC/SC Part 3 §3.2.2.1.5): Type 2 and ISO/IEC 15693 tags only. A Type 1 tag
    /// (Topaz) is reached through the transparent exchange only, as readers that know it offer
    /// it through direct transmit or a transparent session, not through storage-card APDUs.
    private mutating func readBinary(_ command: SimCommandAPDU) -> [UInt8] {
        guard command.data.isEmpty, command.ne != nil else { return ReaderStatusWord.wrongLength }
        switch tag.parameters {
        case .iso14443A(let a) where a.isType1Platform: return ReaderStatusWord.notSupported
        case .iso14443A where !tag.speaksISODEP: return type2Read(command)
        case .iso15693: return iso15693Read(command)
        default: return ReaderStatusWord.notSupported
        }
    }

    /// UPDATE BINARY (PC/SC Part 3 §3.2.2.1.6): Type 2 and ISO/IEC 15693 tags only. An Le field,
    /// which the command does not use, is ignored.
    private mutating func updateBinary(_ command: SimCommandAPDU) -> [UInt8] {
        switch tag.parameters {
        case .iso14443A(let a) where a.isType1Platform: return ReaderStatusWord.notSupported
        case .iso14443A where !tag.speaksISODEP: return type2Write(command)
        case .iso15693: return iso15693Write(command)
        default: return ReaderStatusWord.notSupported
        }
    }

    // MARK: The field

    /// Sends one frame to the tag (what `TagConnection.transceive` carries for its technology);
    /// silence when the field is off.
    mutating func transmit(_ frame: [UInt8]) -> TagAnswer {
        guard isFieldOn else { return .mute }
        let answer = tag.respond(to: frame, context: context)
        if answer.writesMemory { lastCommandWroteMemory = true }
        return answer
    }

    /// The field comes on: the tag powers up and is activated.
    mutating func switchFieldOn() {
        isFieldOn = true
        tag.powerOn()
        _ = tag.activate(context: context)
    }

    /// After a pseudo-APDU the tag refused or ignored, the reader selects the tag again so the
    /// next one finds it ready (a Type 2 tag falls silent after a NAK until reactivated); the
    /// tag's memory and non-volatile state are untouched.
    mutating func reselect() {
        guard isFieldOn else { return }
        _ = tag.activate(context: context)
    }
}
