import NFCTransport

/// A virtual NXP MIFARE DESFire EV1, EV2 or EV3: the PICC level with its master key, and up to 28
/// applications of DES/2K3DES, 3K3DES or AES keys and files (standard, backup, value, linear and
/// cyclic record) with transactions; the legacy Authenticate (`0A`), AuthenticateISO (`1A`) and
/// AuthenticateAES (`AA`) with EV1 secure messaging, AuthenticateEV2First/NonFirst and EV2 secure
/// messaging (EV2, EV3); and ISO/IEC 7816-4 access to files that have ISO identifiers (the NFC
/// Forum Type 4 application of a DESFire formatted for NDEF).
///
/// Written from NXP's public documents — the MIFARE DESFire EV1, EV2 and EV3 short data sheets
/// (MF3ICDx21_41_81, MF3DX2, MF3DHx3), AN12343 (MIFARE DESFire Light features and hints, whose
/// EV2 secure messaging and command layout DESFire EV2 shares), AN12752 and AN11004 (DESFire as
/// an NFC Forum Type 4 Tag) — independently of the `NFCDESFire` client. Native commands arrive as
/// native frames (`cmd data`, answered `status data`) or ISO/IEC 7816-4 wrapped (`90 cmd 00 00 Lc
/// data 00`, answered `data 91 status`); `AF` asks for the next frame of a long answer.
///
/// SetConfiguration (`5C`) options `00`–`02` are modelled: FormatPICC disabled, the random ID — a
/// 4-byte UID `08 xx xx xx` (ISO/IEC 14443-3 §6.5.4, UID0 `08h`: a random number) drawn anew
/// each time the card enters the field, ATQA `0304` for a single-size UID, GetCardUID still
/// giving the real one — the default key new applications' keys start as, and a user-defined ATS.
///
/// What is not modelled, and answers as the card does to a command it lacks: ISO 7816-4
/// authentication (`00 82`/`00 84`/`00 88`), SetConfiguration's EV2 options, transaction MAC
/// files, delegated applications and proximity check.
public struct DESFireCard: VirtualTag, TagImageRepresentable {
    /// A key (16 bytes for DES, 2K3DES and AES, 24 for 3K3DES) and its version.
    public typealias Key = NTAG424Tag.Key

    /// The generation, which sets the version and the EV2 commands.
    public var model: DESFireModel
    /// The 7-byte UID.
    public var uid: [UInt8]
    /// The PICC master key.
    public var piccKey: Key
    /// The PICC master key's type (DES as NXP ships cards).
    public var piccKeyType: DESFireKeyType
    /// The PICC key settings (`0F` as shipped: master key changeable, free listing, free
    /// application creation, settings changeable).
    public var piccKeySettings: UInt8
    /// The applications, in creation order.
    public var applications: [DESFireApplication]
    /// SetConfiguration option `00`'s byte: bit 0 FormatPICC disabled, bit 1 random ID. Both are
    /// permanent: the card never clears them.
    public var piccConfiguration: UInt8 = 0

    /// The key every key of a new application starts as (SetConfiguration option `01`): 24 bytes,
    /// of which a key type takes the first 16 or 24, and its version; `nil` is the shipped one, zeros
    /// at version `00`.
    public var defaultKey: Key?
    /// The ATS the card answers RATS with (SetConfiguration option `02`), TL first; `nil` is the
    /// model's own.
    public var userATS: [UInt8]?
    /// The 56-byte originality signature Read_Sig answers (EV2, EV3); `nil`: the simulator's
    /// test key's signature of the UID (`OriginalityTestKey/signature(of:)`).
    public var originalitySignature: [UInt8]?

    /// Whether FormatPICC is disabled (SetConfiguration option `00`, bit 0).
    public var formatDisabled: Bool { piccConfiguration & 0x01 != 0 }
    /// Whether the card answers anticollision with a random ID (SetConfiguration option `00`, bit 1).
    public var randomIDEnabled: Bool { piccConfiguration & 0x02 != 0 }

    // Volatile state, reset when the card enters the field.
    /// The random ID of this stay in the field (``randomIDEnabled``), drawn at power-on.
    var randomID: [UInt8] = []
    /// The index in ``applications`` of the selected application; `nil` is the PICC level.
    public internal(set) var selected: Int?
    /// The index of the file ISOSelectFile made current in the selected application.
    var currentFile: Int?
    /// The authenticated session, if any (it belongs to the selected level).
    var session: DESFireCardSession?
    /// A multi-frame exchange waiting for `AF`.
    var pending: Pending?
    /// The selected application's files with the changes of the transaction in progress applied;
    /// `nil` when nothing is uncommitted.
    var uncommitted: [DESFireDataFile]?
    /// Value files LimitedCredit was used on in this transaction.
    var limitedCreditUsed: Set<UInt8> = []
    /// Record files whose newest uncommitted record WriteRecord is still filling.
    var writingRecords: Set<UInt8> = []
    /// What this transaction's Debits took from each value file (LimitedCredit's allowance at commit).
    var debited: [UInt8: Int64] = [:]
    /// Bytes the card uses instead of random ones (RndB, then TI), for tests that replay published
    /// exchanges; the system's generator supplies the rest.
    public var scriptedRandom: [UInt8] = []

    /// What an `AF` continues.
    enum Pending: Sendable, Hashable {
        /// GetVersion: the next part (1 or 2) to send.
        case version(part: Int)
        /// AuthenticateEV2First or NonFirst after the card sent E(Kx, RndB).
        case authentication(keyNumber: UInt8, rndB: [UInt8], first: Bool, pcdCapabilities: [UInt8])
        /// Authenticate, AuthenticateISO or AuthenticateAES after the card sent E(RndB); `iv` the
        /// last block of it.
        case ev1Authentication(ins: UInt8, keyNumber: UInt8, rndB: [UInt8], iv: [UInt8])
        /// The rest of a long answer and the status its last frame ends with.
        case response(rest: [UInt8], status: DESFireStatus)
        /// Answers that go one per frame (GetDFNames).
        case frames([[UInt8]])
        /// A command whose data goes on in `AF` frames: what came so far and the length it needs.
        case command(ins: UInt8, received: [UInt8], expected: Int)
    }

    /// The UID of a card made without one (NXP's manufacturer code `04`).
    public static let defaultUID: [UInt8] = [0x04, 0x44, 0x45, 0x53, 0x46, 0x49, 0x80]

    /// The most applications a card holds (EV1 short data sheet §8.2).
    public static let maximumApplications = 28
    /// The most files an application holds (§8.3).
    public static let maximumFiles = 32
    /// The most keys an application holds (§8.4).
    public static let maximumKeys = 14

    /// A card as NXP ships it: no applications, the PICC master key a DES key of zeros at version
    /// `00` (EV1 short data sheet §8.4: "delivered with a DES key of all zeros"), key settings `0F`.
    public init(model: DESFireModel = .ev3, uid: [UInt8] = DESFireCard.defaultUID) {
        self.model = model
        self.uid = uid
        piccKeyType = .des
        piccKey = DESFireKeyType.des.zeroKey
        piccKeySettings = 0x0F
        applications = []
    }

    /// The bytes of memory the files take.
    public var usedMemory: Int { applications.reduce(0) { $0 + $1.files.reduce(0) { $0 + $1.allocation } } }

    /// FreeMemory's answer: the bytes not yet allocated to files.
    public var freeMemory: Int { max(0, DESFireModel.capacity - usedMemory) }

    /// The keys of the selected level: the PICC master key, or the application's keys.
    var levelKeys: [Key] {
        guard let selected else { return [piccKey] }
        return applications[selected].keys
    }

    /// The type of the selected level's keys.
    var levelKeyType: DESFireKeyType {
        guard let selected else { return piccKeyType }
        return applications[selected].keyType
    }

    /// Takes `count` random bytes: scripted ones first.
    mutating func random(_ count: Int) -> [UInt8] { ScriptedRandom.take(count, from: &scriptedRandom) }

    // MARK: VirtualTag

    /// The UID anticollision gives: the 7-byte UID, or with the random ID this stay's `08 xx xx xx`.
    public var identifier: [UInt8] { randomIDEnabled && randomID.count == 4 ? randomID : uid }

    /// ATQA `0344` (double-size UID) or, with the random ID, `0304` (single size; ISO/IEC 14443-3
    /// §6.5.2.1, bits 8–7 of the first byte), SAK `20`, and the model's ATS.
    public var parameters: TargetInfo.Parameters {
        .iso14443A(TargetInfo.ISO14443A(atqa: identifier.count == 4 ? 0x0304 : 0x0344, sak: 0x20, ats: answerToSelect))
    }

    /// The ``userATS`` when one is set; else EV1: `06 75 77 81 02 80` (FSCI 5, 64-byte frames, FWI
    /// 8); EV2 and EV3 take 128-byte frames (`06 77 77 71 02 80`, FSCI 7, FWI 7), as their short
    /// data sheets' frame sizes give.
    var answerToSelect: AnswerToSelect {
        if let userATS, let ats = try? AnswerToSelect(bytes: userATS) { return ats }
        return model == .ev1
            ? AnswerToSelect(fsci: 5, ta: 0x77, tb: 0x81, tc: 0x02, historicalBytes: [0x80])
            : AnswerToSelect(fsci: 7, ta: 0x77, tb: 0x71, tc: 0x02, historicalBytes: [0x80])
    }

    /// Entering the field: a new random ID when it is on, then what every activation resets.
    public mutating func powerOn() {
        randomID = randomIDEnabled ? [0x08] + (0..<3).map { _ in UInt8.random(in: 0...255) } : []
        resetSession()
    }

    /// Every activation: the PICC level, no session, nothing pending, the transaction aborted. A
    /// card reactivated without leaving the field keeps its random ID.
    mutating func resetSession() {
        selected = nil
        currentFile = nil
        session = nil
        pending = nil
        discardTransaction()
    }

    /// WUPA, the two cascade levels of a 7-byte UID, RATS/ATS and, above 106 kbit/s, PPS.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        resetSession()
        return ISO14443AActivation.frames(
            uidLength: identifier.count, atsLength: answerToSelect.bytes.count, pps: context.bitRate > .kbps106,
            startUpGuardTime: ISO14443AActivation.startUpGuardTime(sfgi: 0x01))
    }

    /// Answers one frame (native or wrapped), charging ISO-DEP framing and processing time.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        let response = handle(command)
        let processing = Self.processingTime + response.additionalProcessingTime
        let framing = ISODEPFraming(
            cardFrameSize: answerToSelect.frameSize, readerFrameSize: context.readerFrameSize, usesCID: false,
            frameWaitingTime: answerToSelect.frameWaitingTime)
        let bytes = response.bytes
        let frames = framing.frames(commandLength: command.count, responseLength: bytes.count, processingTime: processing)
        return TagAnswer(.bytes(bytes), processingTime: processing, frames: frames, writesMemory: response.writesMemory)
    }

    /// The time every command takes (a model value).
    static let processingTime: Duration = .microseconds(500)
    /// What an EEPROM write adds (a model value).
    static let writeTime: Duration = .milliseconds(3)
}
