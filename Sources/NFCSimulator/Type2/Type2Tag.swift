import NFCTransport

/// A virtual NXP NTAG213/215/216 or MIFARE Ultralight EV1 (MF0UL11, MF0UL21): the NFC Forum
/// Type 2 platform chips, byte for byte as their data sheets describe them.
///
/// Memory is the chip's whole page array, UID to PACK. The tag follows the ISO/IEC 14443-3 state
/// machine: it answers only when ACTIVE or AUTHENTICATED; any NAK, an unknown command or HLTA
/// sends it to IDLE or HALT, where it stays silent (``TagAnswer/mute``) until the reader
/// activates it again. Commands: GET_VERSION, READ (with roll-over), FAST_READ, WRITE,
/// COMPATIBILITY_WRITE, READ_CNT, PWD_AUTH, READ_SIG, and on Ultralight EV1 also INCR_CNT,
/// CHECK_TEARING_EVENT and VCSL; NTAG21x also mirrors the UID and NFC counter as ASCII.
///
/// NTAG213/215/216 product data sheet Rev. 3.2; MF0ULX1 (MIFARE Ultralight EV1) Rev. 3.x.
public struct Type2Tag: TagImageRepresentable, Hashable {
    /// The chip modelled.
    public let model: Model
    /// The 7-byte UID, UID0 first (04h for NXP).
    public let uid: [UInt8]
    /// The whole memory, page 00h first, as stored in EEPROM (PWD and PACK included).
    public internal(set) var memory: [UInt8]
    /// The one-way counters: NTAG21x has one (the NFC counter), Ultralight EV1 three. 24-bit.
    public internal(set) var counters: [UInt32]
    /// Ultralight EV1's counter tearing flags (BDh: no tearing event); empty on NTAG21x.
    public internal(set) var tearingFlags: [UInt8]
    /// The 32-byte originality signature READ_SIG returns.
    public let signature: [UInt8]
    /// Unsuccessful PWD_AUTH attempts since the last successful one (non-volatile, AUTHLIM).
    public internal(set) var failedAuthentications: Int
    /// For a copy of a real chip (`nfc dump -o`): the pages that could not be read, which hold
    /// factory values here (PWD, PACK, pages behind a read password). Empty for a whole image.
    public internal(set) var unreadPages: [ClosedRange<Int>] = []

    /// The ISO/IEC 14443-3 state (NTAG21x §8.4; MF0ULX1 “State diagram”).
    public internal(set) var state: State = .idle
    /// The page COMPATIBILITY_WRITE part 1 acknowledged, waiting for part 2's data.
    var pendingCompatibilityWrite: Int?
    /// Whether the NFC counter has counted a READ or FAST_READ since power-on (NTAG21x “NFC counter function”).
    var nfcCounterIncremented = false
    /// The configuration the chip acts on: latched from CFG0/CFG1 at power-on and activation.
    var effective: EffectiveConfiguration

    /// The ISO/IEC 14443-3 states a Type 2 chip answers commands in, or waits in.
    public enum State: Sendable, Hashable {
        /// Powered, waiting for REQA or WUPA; also where a NAK or an error sends the tag.
        case idle
        /// Halted by HLTA (or an error from HALT), waiting for WUPA.
        case halt
        /// Selected: memory commands are served.
        case active
        /// Selected after a successful PWD_AUTH: protected pages are served too.
        case authenticated
    }

    /// The 4-bit NAK codes (NTAG21x §9.3; MF0ULX1 “ACK and NAK”).
    public enum NAK: UInt8, Sendable, Hashable, CaseIterable {
        /// Invalid argument (an invalid page address, a locked or protected page, a wrong password).
        case invalidArgument = 0x0
        /// Parity or CRC error. Never produced here: commands reach the tag without CRC, and
        /// damaged frames are the field's faults to inject.
        case parityOrCRCError = 0x1
        /// The negative PWD_AUTH attempt counter reached AUTHLIM.
        case authenticationCounterOverflow = 0x4
        /// EEPROM write error. Never produced here: the simulated EEPROM does not wear out.
        case eepromWriteError = 0x5
    }

    /// The command codes of the chips (NTAG21x §9.1; MF0ULX1 “Command overview”).
    enum Command: UInt8 {
        case getVersion = 0x60
        case read = 0x30
        case fastRead = 0x3A
        case write = 0xA2
        case compatibilityWrite = 0xA0
        case readCounter = 0x39
        case incrementCounter = 0xA5
        case passwordAuthentication = 0x1B
        case readSignature = 0x3C
        case checkTearingEvent = 0x3E
        case virtualCardSelectLast = 0x4B
        case halt = 0x50
    }

    /// EEPROM programming time of one page (WRITE, COMPATIBILITY_WRITE part 2, INCR_CNT).
    ///
    /// With the 8-byte WRITE frame, the 4-bit ACK and the frame delay before the answer, the data
    /// sheets and AIRTIME.md arrive at ≈ 4.95 ms per page; ``AirTimeModel`` also charges the
    /// reader's turnaround (86.4 µs) after the ACK, so one WRITE costs ≈ 5.04 ms on the air.
    public static let eepromWriteTime: Duration = .microseconds(4100)

    /// A factory-fresh chip.
    ///
    /// - Parameters:
    ///   - model: the chip.
    ///   - uid: 7 bytes, UID0 first; `nil` for a deterministic UID `04 5A 7B <model> 8C 21 80`.
    ///   - blank: `false` writes the capability container for the size and an empty NDEF TLV
    ///     (`03 00 FE`) at page 04h, as NXP ships NTAG21x; `true` leaves page 03h and the user
    ///     memory zero, as NXP ships Ultralight EV1.
    ///   - signature: the 32-byte originality signature; `nil` for the simulator's test key's
    ///     signature of the UID (which verifies under that key, never under NXP's).
    /// Everything else is as shipped: static and dynamic lock bytes clear (dynamic byte 3 BDh),
    /// AUTH0 FFh (no protection), ACCESS 00h, PWD FFFFFFFFh, PACK 0000h, counters zero.
    public init(model: Model, uid: [UInt8]? = nil, blank: Bool = false, signature: [UInt8]? = nil) {
        let uid = uid ?? [0x04, 0x5A, 0x7B, model.uidTag, 0x8C, 0x21, 0x80]
        precondition(uid.count == 7, "a Type 2 chip has a 7-byte UID")  // trap-ok: caller's rule
        let signature = signature ?? Self.defaultSignature(for: uid)
        precondition(signature.count == 32, "the originality signature has 32 bytes")  // trap-ok: caller's rule
        var memory = [UInt8](repeating: 0, count: model.memorySize)
        memory.replaceSubrange(0..<12, with: Self.serialNumberPages(uid))
        if !blank {
            memory.replaceSubrange(12..<16, with: model.formattedCapabilityContainer)
            memory.replaceSubrange(16..<19, with: [0x03, 0x00, 0xFE])
        }
        if let page = model.dynamicLockPage { memory[page * 4 + 3] = 0xBD }
        memory.replaceSubrange(model.configurationPage0 * 4..<model.configurationPage0 * 4 + 4, with: model.factoryConfiguration0)
        memory.replaceSubrange(model.configurationPage1 * 4..<model.configurationPage1 * 4 + 4, with: model.factoryConfiguration1)
        memory.replaceSubrange(model.passwordPage * 4..<model.passwordPage * 4 + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        self.init(
            model: model, uid: uid, memory: memory,
            counters: Array(repeating: 0, count: model.counterCount),
            tearingFlags: model.isNTAG ? [] : [0xBD, 0xBD, 0xBD],
            signature: signature, failedAuthentications: 0
        )
    }

    init(
        model: Model, uid: [UInt8], memory: [UInt8], counters: [UInt32], tearingFlags: [UInt8], signature: [UInt8],
        failedAuthentications: Int
    ) {
        self.model = model
        self.uid = uid
        self.memory = memory
        self.counters = counters
        self.tearingFlags = tearingFlags
        self.signature = signature
        self.failedAuthentications = failedAuthentications
        self.effective = EffectiveConfiguration(memory: memory, model: model)
    }

    /// Pages 00h–02h for a UID: UID0–2 BCC0 | UID3–6 | BCC1 internal(48h) lock0 lock1
    /// (ISO/IEC 14443-3 §6.5.4: BCC0 = CT ⊕ UID0 ⊕ UID1 ⊕ UID2 with CT = 88h, BCC1 = UID3 ⊕ … ⊕ UID6).
    static func serialNumberPages(_ uid: [UInt8], lockBytes: [UInt8] = [0, 0]) -> [UInt8] {
        let bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        let bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        return [uid[0], uid[1], uid[2], bcc0, uid[3], uid[4], uid[5], uid[6], bcc1, 0x48] + lockBytes
    }

    /// The originality signature a virtual chip is made with: ECDSA on secp128r1 over the UID as
    /// NXP signs its chips (r ‖ s, no hash), under the simulator's test key
    /// (`OriginalityTestKey/type2Signature(of:)`), since NXP's private key is NXP's.
    static func defaultSignature(for uid: [UInt8]) -> [UInt8] { OriginalityTestKey.type2Signature(of: uid) }

    /// The 4 bytes of a page as stored.
    public func page(_ address: Int) -> [UInt8] {
        Array(memory[address * 4..<address * 4 + 4])
    }

    /// Whether a PWD_AUTH succeeded since the last activation.
    public var isAuthenticated: Bool { state == .authenticated }

    // MARK: VirtualTag

    /// The 7-byte UID.
    public var identifier: [UInt8] { uid }

    /// ATQA 0044h (7-byte UID, bit frame anticollision), SAK 00h, no ATS (NTAG21x §9.4;
    /// MF0ULX1 “ATQA and SAK responses”).
    public var parameters: TargetInfo.Parameters { .iso14443A(.init(atqa: 0x0044, sak: 0x00)) }

    /// Power-on reset: IDLE, not authenticated, and the whole configuration (CFGLCK and the mirror
    /// included) latched from CFG0/CFG1.
    public mutating func powerOn() {
        state = .idle
        pendingCompatibilityWrite = nil
        nfcCounterIncremented = false
        effective = EffectiveConfiguration(memory: memory, model: model)
    }

    /// WUPA, then SELECT at cascade levels 1 and 2 with the known UID; the tag is ACTIVE
    /// (not authenticated) and re-reads AUTH0 and ACCESS, all but CFGLCK which waits for the next
    /// power-on (what a genuine chip does; NTAG21x “Configuration pages”, Remark on CFGLCK).
    ///
    /// Air frames (≈ 2.93 ms at 106 kbit/s): WUPA (7 bits) → ATQA (2 bytes, no CRC); SELECT CL1
    /// `93 70 88 UID0 UID1 UID2 BCC0` → SAK 04h; SELECT CL2 `95 70 UID3…UID6 BCC1` → SAK 00h.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        state = .active
        pendingCompatibilityWrite = nil
        effective.reactivate(memory: memory, model: model)
        return Self.activationFrames
    }

    /// The frames of ``activate(context:)``.
    public static let activationFrames: [AirFrame] = [
        AirFrame(reader: .bits(7), tag: .bytes(2, crc: false)),
        AirFrame(reader: .bytes(7), tag: .bytes(1)),
        AirFrame(reader: .bytes(7), tag: .bytes(1)),
    ]

    /// Answers one native command (without CRC) while ACTIVE or AUTHENTICATED; otherwise it stays silent.
    ///
    /// A code the chip does not know, or a malformed HALT, gets no answer and drops the tag to IDLE; another command of
    /// the wrong length gets a NAK, which also drops it to IDLE (mute until activated again). HALT is not answered.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        guard state == .active || state == .authenticated else { return .mute }
        if let page = pendingCompatibilityWrite {
            pendingCompatibilityWrite = nil
            return compatibilityWriteData(command, page: page)
        }
        guard let code = command.first, let known = Command(rawValue: code), supports(known) else {
            // Not a command of this chip: an error in ACTIVE, back to IDLE without an answer.
            return fallSilent()
        }
        guard command.count == Self.commandLength(known) else {
            if known == .halt { return fallSilent() }
            return nak(.invalidArgument)
        }
        switch known {
        case .getVersion: return .bytes(model.versionBytes)
        case .read: return read(from: Int(command[1]))
        case .fastRead: return fastRead(from: Int(command[1]), through: Int(command[2]))
        case .write: return write(Array(command[2...]), to: Int(command[1]))
        case .compatibilityWrite: return compatibilityWriteAddress(Int(command[1]))
        case .readCounter: return readCounter(Int(command[1]))
        case .incrementCounter: return incrementCounter(Int(command[1]), by: Array(command[2..<5]))
        case .passwordAuthentication: return authenticate(password: Array(command[1...]))
        case .readSignature: return command[1] == 0x00 ? .bytes(signature) : nak(.invalidArgument)
        case .checkTearingEvent: return checkTearingEvent(Int(command[1]))
        case .virtualCardSelectLast: return .bytes([memory[model.configurationPage1 * 4 + 1]])
        case .halt:
            guard command[1] == 0x00 else { return fallSilent() }
            state = .halt
            return .mute
        }
    }

    /// Whether the chip knows a command (INCR_CNT, CHECK_TEARING_EVENT and VCSL are EV1's).
    func supports(_ command: Command) -> Bool {
        switch command {
        case .incrementCounter, .checkTearingEvent, .virtualCardSelectLast: !model.isNTAG
        default: true
        }
    }

    /// The frame length of each command, code byte included.
    static func commandLength(_ command: Command) -> Int {
        switch command {
        case .getVersion: 1
        case .read, .compatibilityWrite, .readCounter, .readSignature, .checkTearingEvent, .halt: 2
        case .fastRead: 3
        case .passwordAuthentication: 5
        case .write, .incrementCounter: 6
        case .virtualCardSelectLast: 21
        }
    }

    /// Answers NAK and drops to IDLE: the tag ignores everything until activated again.
    mutating func nak(_ code: NAK) -> TagAnswer {
        state = .idle
        pendingCompatibilityWrite = nil
        return .nak(code.rawValue)
    }

    /// Drops to IDLE without answering (an unknown or malformed frame).
    mutating func fallSilent() -> TagAnswer {
        state = .idle
        pendingCompatibilityWrite = nil
        return .mute
    }
}
