import NFCTransport

/// An NXP NTAG 424 DNA (NT4H2421G0): an ISO/IEC 14443-4 tag with one application (DF name
/// `D2760000850101`, ISO FID `E110`) holding three standard data files, five AES-128 keys,
/// AuthenticateEV2First/NonFirst, EV2 secure messaging and Secure Dynamic Messaging (SUN).
///
/// Written from the NTAG 424 DNA data sheet (NT4H2421Gx rev. 3.0) and NXP AN12196, independently
/// of the `NFCDESFire` client. Native commands arrive ISO/IEC 7816-4 wrapped (`90 INS 00 00 Lc data
/// 00`, answers ending `91 xx`, `91 AF` asking for the next frame); ISOSelectFile, ISOReadBinary
/// and ISOUpdateBinary arrive with CLA `00`. Read_Sig answers the originality signature, made
/// with the simulator's test key (`OriginalityTestKey`) unless the image holds another.
///
/// SetConfiguration's option `05` with PDCap2.1 bit 1 switches the tag to LRP mode for good
/// (§9.2, §10.5.1): from then on AuthenticateLRPFirst/NonFirst (AN12304) and
/// LRP secure messaging replace the AES ones, AuthenticateEV2First is refused, and SDM writes
/// 24-byte PICC data and LRP MACs. What is not modelled: SetConfiguration's other options
/// (random ID, failed-authentication counters, …), TagTamper, and command chaining of long
/// WriteData commands (the tag answers a length error; write in parts).
public struct NTAG424Tag: VirtualTag, TagImageRepresentable {
    /// An application key and its version.
    public struct Key: Sendable, Hashable {
        /// 16 bytes of AES-128.
        public var value: [UInt8]
        /// The version GetKeyVersion answers (`00` as shipped).
        public var version: UInt8

        /// A key from its value and version.
        public init(value: [UInt8], version: UInt8 = 0) {
            self.value = value
            self.version = version
        }
    }

    /// The application's DF name, the NFC Forum NDEF application (data sheet §8.2.1).
    public static let applicationName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The application's ISO DF identifier.
    public static let applicationID: UInt16 = 0xE110

    /// The 7-byte UID.
    public var uid: [UInt8]
    /// Keys `00`–`04`; key `00` is the application master key.
    public var keys: [Key]
    /// Files `01` (CC), `02` (NDEF) and `03` (proprietary).
    public var files: [NTAG424File]
    /// The 56-byte originality signature Read_Sig answers; `nil`: the simulator's test key's
    /// signature of the UID (`OriginalityTestKey/signature(of:)`), made when first asked.
    public var originalitySignature: [UInt8]?
    /// LRP mode (SetConfiguration option `05`, PDCap2.1 bit 1): permanent once set. Turning it on
    /// turns SDM off on every file, as the switch does (§9.3.4.2): SDM laid out for AES's 32
    /// characters of PICC data would not hold LRP's 48.
    public var lrpMode = false {
        didSet {
            if lrpMode && !oldValue { for index in files.indices { files[index].sdm = nil } }
        }
    }

    // Volatile state, reset when the tag enters the field.
    /// Whether the application (rather than the PICC level) is selected.
    public internal(set) var applicationSelected = false
    /// The index in ``files`` of the file ISOSelectFile made current.
    var currentFile: Int?
    /// The authenticated session, if any.
    var session: Session?
    /// A multi-frame exchange waiting for `90 AF`.
    var pending: Pending?
    /// The file as the last command read it, when that was an SDM read: reads of the same file by
    /// the same command that follow one another see the same mirror, and only the first steps
    /// SDMReadCtr (data sheet §9.3.1).
    var lastRead: Mirror?
    /// ``lastRead`` as the previous command left it (``handle(_:)`` moves it here).
    var previousRead: Mirror?
    /// Bytes the tag uses instead of random ones (RndB, then TI, then SDM padding), for tests
    /// that replay published examples; the system's generator supplies the rest.
    public var scriptedRandom: [UInt8] = []

    /// An authenticated session (data sheet §9.1.7, §9.2.7): key, session keys, transaction
    /// identifier, command counter; in LRP mode the primitive of SesAuthMasterKey (updated key 0
    /// MACs, updated key 1 enciphers) and EncCtr, the LRICB counter every enciphered block of
    /// either direction steps (§9.2.4).
    struct Session: Sendable, Hashable {
        var keyNumber: UInt8
        var encryption: [UInt8]
        var mac: [UInt8]
        var ti: [UInt8]
        var counter: UInt16
        var lrp: NTAG424LRP? = nil
        var encryptionCounter: UInt32 = 0
    }

    /// What a `90 AF` continues.
    enum Pending: Sendable, Hashable {
        /// GetVersion: the next part (1 or 2) to send.
        case version(part: Int)
        /// AuthenticateEV2First or NonFirst after the card sent E(Kx, RndB), or their LRP
        /// forms after it sent `01` ‖ RndB.
        case authentication(keyNumber: UInt8, rndB: [UInt8], first: Bool, pcdCapabilities: [UInt8], lrp: Bool)
        /// The rest of a long answer and the status its last frame ends with.
        case response(rest: [UInt8], status: Status)
    }

    /// An SDM file's bytes as one run of reads sees them.
    struct Mirror: Sendable, Hashable {
        var file: UInt8
        var iso: Bool
        var contents: [UInt8]
    }

    /// The 7-byte UID of a tag made without one (NXP manufacturer code `04`).
    public static let defaultUID: [UInt8] = [0x04, 0x42, 0x4E, 0x54, 0x34, 0x32, 0x90]

    /// A tag as NXP ships it (data sheet §8.2.2 and §8.2.3): all keys zero at version `00`, the CC
    /// file pointing at files `E104` and `E105`, an empty NDEF file (NLEN `0000`), free read and
    /// write on file `02`, file `03` encrypted behind keys 2 and 3.
    public init(uid: [UInt8] = NTAG424Tag.defaultUID) {
        self.uid = uid
        keys = Array(repeating: Key(value: [UInt8](repeating: 0, count: 16)), count: 5)
        files = [
            NTAG424File(
                number: 0x01, isoID: 0xE103, mode: .plain, access: .init(read: 0x0E, write: 0x00, readWrite: 0x00, change: 0x00),
                contents: Self.capabilityContainer),
            NTAG424File(
                number: 0x02, isoID: 0xE104, mode: .plain, access: .init(read: 0x0E, write: 0x0E, readWrite: 0x0E, change: 0x00),
                contents: [UInt8](repeating: 0, count: 256)),
            NTAG424File(
                number: 0x03, isoID: 0xE105, mode: .full, access: .init(read: 0x02, write: 0x03, readWrite: 0x03, change: 0x00),
                contents: [UInt8](repeating: 0, count: 128)),
        ]
    }

    /// The CC file as shipped (data sheet §8.2.2, NFC Forum T4T 2.0): CCLEN `0017`, mapping
    /// version 2.0, MLe `0100`, MLc `00FF`, the NDEF File Control TLV (`E104`, 256 bytes, free read
    /// and write) and a Proprietary File Control TLV (`E105`, 128 bytes, read and write limited).
    public static let capabilityContainer: [UInt8] =
        [
            0x00, 0x17, 0x20, 0x01, 0x00, 0x00, 0xFF,
            0x04, 0x06, 0xE1, 0x04, 0x01, 0x00, 0x00, 0x00,
            0x05, 0x06, 0xE1, 0x05, 0x00, 0x80, 0x82, 0x83,
        ] + [UInt8](repeating: 0, count: 9)

    /// The NDEF message in file `02` (the bytes after NLEN), `nil` when NLEN runs past the file.
    public var ndefMessage: [UInt8]? {
        guard let file = files.first(where: { $0.number == 0x02 }), file.contents.count >= 2 else { return nil }
        let length = Int(file.contents[0]) << 8 | Int(file.contents[1])
        guard length <= file.contents.count - 2 else { return nil }
        return Array(file.contents[2..<2 + length])
    }

    /// Stores an NDEF message and its NLEN in file `02`.
    /// - Throws: ``TagImageError`` `.invalidValue` at `message` when it does not fit.
    public mutating func setNDEFMessage(_ message: [UInt8]) throws(TagImageError) {
        guard let index = files.firstIndex(where: { $0.number == 0x02 }), message.count <= files[index].contents.count - 2 else {
            throw TagImageError(.invalidValue, field: "message", "\(message.count) bytes do not fit the NDEF file")
        }
        let bytes = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        files[index].contents.replaceSubrange(0..<bytes.count, with: bytes)
    }

    /// Takes `count` random bytes: scripted ones first.
    mutating func random(_ count: Int) -> [UInt8] { ScriptedRandom.take(count, from: &scriptedRandom) }

    // MARK: VirtualTag

    /// The UID.
    public var identifier: [UInt8] { uid }

    /// ATQA `0344`, SAK `20` and the ATS `06 77 77 71 02 80` (data sheet §8.1, Table 4).
    public var parameters: TargetInfo.Parameters {
        .iso14443A(TargetInfo.ISO14443A(atqa: 0x0344, sak: 0x20, ats: Self.answerToSelect))
    }

    /// FSCI 7 (128 bytes), 106–848 kbit/s both ways, FWI 7, SFGI 1, CID supported, historical byte `80`.
    static let answerToSelect = AnswerToSelect(fsci: 7, ta: 0x77, tb: 0x71, tc: 0x02, historicalBytes: [0x80])

    /// Entering the field: the PICC level selected, no session, nothing pending, no mirror.
    public mutating func powerOn() {
        applicationSelected = false
        currentFile = nil
        session = nil
        pending = nil
        lastRead = nil
        previousRead = nil
    }

    /// WUPA, the two cascade levels of a 7-byte UID, RATS/ATS and, above 106 kbit/s, PPS.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        powerOn()
        return ISO14443AActivation.frames(
            uidLength: uid.count, atsLength: Self.answerToSelect.bytes.count, pps: context.bitRate > .kbps106,
            startUpGuardTime: ISO14443AActivation.startUpGuardTime(sfgi: 0x01))
    }

    /// Answers one APDU, charging ISO-DEP framing and the tag's processing time.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        let response = handle(command)
        let processing = Self.processingTime + response.additionalProcessingTime
        let framing = ISODEPFraming(
            cardFrameSize: Self.answerToSelect.frameSize, readerFrameSize: context.readerFrameSize, usesCID: false,
            frameWaitingTime: Self.answerToSelect.frameWaitingTime)
        let bytes = response.bytes
        let frames = framing.frames(commandLength: command.count, responseLength: bytes.count, processingTime: processing)
        return TagAnswer(.bytes(bytes), processingTime: processing, frames: frames, writesMemory: response.writesMemory)
    }

    /// The time every command takes (a model value: the data sheet gives no figure per command).
    static let processingTime: Duration = .microseconds(500)
    /// What an EEPROM write adds (a model value in the range NXP quotes for its EEPROM, a few ms).
    static let writeTime: Duration = .milliseconds(3)
}
