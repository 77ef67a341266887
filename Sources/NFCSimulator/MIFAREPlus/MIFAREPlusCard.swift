import NFCTransport

/// A virtual NXP MIFARE Plus EV1 or EV2 (2 or 4 KB, 7-byte UID) at security level 0, 1 or 3.
///
/// - SL0 (as shipped): ISO-DEP; WritePerso (`A8`) fills data blocks, AES keys and configuration
///   blocks, CommitPerso (`AA`, option `01` SL1 or `03` SL3) moves on once the card master key
///   (`9000`), card configuration key (`9001`) and level 3 switch key (`9003`) are written.
/// - SL1: MIFARE Classic compatibility — SAK `08`/`18`, no ISO-DEP; Crypto1 is not modelled, so
///   the card stays silent after activation (Core NFC does not deliver such a card either).
/// - SL3: ISO-DEP; AuthenticateFirst (`70`, `73`) and AuthenticateNonFirst (`76`) with `72`, EV0 or
///   EV1 secure messaging as PCDcap2[0] asks, Read (`30`–`37`), Write (`A0`–`A3`), Increment,
///   Decrement, Transfer, Restore and their combinations (`B0`–`B9`, `C2`, `C3`), ResetAuth
///   (`78`), the sector trailers' access conditions with key A and key B the sector's AES keys,
///   the card keys (`9000`…) and configuration blocks (`B000`…) under the card master and
///   configuration keys.
/// - Every level: GetVersion (`60`, then `AF`), MACed inside a session.
///
/// Native frames answer `status data`; ISO/IEC 7816-4 wrapped ones (`90 cmd 00 00 Lc data 00`)
/// answer `data 91 status`; an ISO command (CLA `00`) answers `6A 82` to SELECT (no virtual card)
/// and `6D 00` otherwise. Any error ends the session (proxmark3 sees a failed read end it).
/// Written from the MIFARE Plus EV1/EV2 short data sheets, AN10833 and the public NXP Reader
/// Library's MIFARE Plus layers, apart from the client (docs/mifare-plus.md). Not modelled:
/// SL2, virtual cards and proximity check, transaction MAC, originality signature (`3C` answers
/// `0B`), Random ID.
public struct MIFAREPlusCard: VirtualTag, TagImageRepresentable {
    /// A security level.
    public enum SecurityLevel: Int, Sendable, Hashable, Codable {
        /// Personalization, as shipped.
        case sl0 = 0
        /// MIFARE Classic compatibility (Crypto1).
        case sl1 = 1
        /// AES authentication and secure messaging.
        case sl3 = 3
    }

    /// Generation and size.
    public var model: MIFAREPlusModel
    /// The 7-byte UID.
    public var uid: [UInt8]
    /// The security level.
    public var securityLevel: SecurityLevel
    /// The data blocks, 16 bytes each (block 0 the manufacturer block, each sector's last block its trailer).
    public var blocks: [[UInt8]]
    /// AES keys and configuration blocks by block number (`4000` + 2 × sector key A, + 1 key B;
    /// `9000` card master key, `9001` card configuration key, `9003` level 3 switch key, `9004`
    /// SL1 card authentication key; `B000`–`B003` configuration).
    public var keys: [UInt16: [UInt8]]
    /// The addresses WritePerso wrote (SL0).
    public var personalized: Set<UInt16>

    // Volatile state.
    var session: MIFAREPlusSession?
    var pending: Pending?
    /// The transfer buffer of value operations.
    var transferBuffer: Int32?
    /// Bytes used instead of random ones (RndB, then TI), for tests; the system's generator supplies the rest.
    public var scriptedRandom: [UInt8] = []

    enum Pending: Sendable, Hashable {
        case authentication(keyBlock: UInt16, key: [UInt8], rndB: [UInt8], first: Bool, ev1: Bool, pcdCapabilities: [UInt8])
        case version(part: Int)
    }

    /// The UID of a card made without one.
    public static let defaultUID: [UInt8] = [0x04, 0x4D, 0x50, 0x4C, 0x55, 0x53, 0x80]
    /// The key every AES key and configuration block starts as before personalization (proxmark3's assumption).
    public static let defaultKey = [UInt8](repeating: 0xFF, count: 16)
    /// Batch number, production week and year in GetVersion's third part (model values).
    static let productionData: [UInt8] = [0xBA, 0x4D, 0x50, 0x4C, 0x53, 0x26, 0x24]

    /// A card as NXP ships it (`sl0`) or personalised to SL3 with every AES key `FF…FF` and the
    /// transport access conditions.
    public init(model: MIFAREPlusModel = MIFAREPlusModel(), uid: [UInt8] = MIFAREPlusCard.defaultUID, securityLevel: SecurityLevel = .sl0) {
        self.model = model
        self.uid = uid
        self.securityLevel = securityLevel
        var blocks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: model.blockCount)
        blocks[0] = Array((uid + [0x08, 0x44, 0x00] + [UInt8](repeating: 0, count: 6)).prefix(16))
        for sector in 0..<model.sectorCount { blocks[MIFAREPlusModel.trailer(of: sector)] = MIFAREPlusAccess.transportTrailer }
        self.blocks = blocks
        var keys: [UInt16: [UInt8]] = [:]
        for address in Self.keyAddresses(model) { keys[address] = Self.defaultKey }
        self.keys = keys
        personalized = securityLevel == .sl0 ? [] : Set(keys.keys)
    }

    /// Every AES key and configuration address a model has.
    static func keyAddresses(_ model: MIFAREPlusModel) -> [UInt16] {
        (0..<UInt16(2 * model.sectorCount)).map { 0x4000 + $0 } + [0x9000, 0x9001, 0x9003, 0x9004, 0x9006, 0x9007]
            + [0xB000, 0xB001, 0xB002, 0xB003]
    }

    /// Takes `count` random bytes: scripted ones first.
    mutating func random(_ count: Int) -> [UInt8] { ScriptedRandom.take(count, from: &scriptedRandom) }

    // MARK: VirtualTag

    /// The UID.
    public var identifier: [UInt8] { uid }

    /// SL0 and SL3: SAK `20` and an ATS; SL1: SAK `08` (2 KB) or `18` (4 KB) and no ATS (AN10833 §2.1).
    public var parameters: TargetInfo.Parameters {
        if securityLevel == .sl1 {
            return .iso14443A(TargetInfo.ISO14443A(atqa: model.atqa, sak: model.kilobytes == 4 ? 0x18 : 0x08))
        }
        return .iso14443A(TargetInfo.ISO14443A(atqa: model.atqa, sak: 0x20, ats: answerToSelect))
    }

    /// FSCI 5 (64-byte frames), TA 77, TB 80, TC 02, the historical bytes of ``MIFAREPlusModel/historicalBytes``.
    var answerToSelect: AnswerToSelect {
        AnswerToSelect(fsci: 5, ta: 0x77, tb: 0x80, tc: 0x02, historicalBytes: MIFAREPlusModel.historicalBytes)
    }

    /// Entering the field: no session, nothing pending, an empty transfer buffer.
    public mutating func powerOn() {
        session = nil
        pending = nil
        transferBuffer = nil
    }

    /// WUPA, the two cascade levels of a 7-byte UID and, at SL0 and SL3, RATS/ATS and PPS above 106 kbit/s.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        powerOn()
        guard securityLevel != .sl1 else {
            return Type2Tag.activationFrames
        }
        return ISO14443AActivation.frames(
            uidLength: uid.count, atsLength: answerToSelect.bytes.count, pps: context.bitRate > .kbps106,
            startUpGuardTime: ISO14443AActivation.startUpGuardTime(sfgi: 0))
    }

    /// Answers one frame: native (`cmd data` → `status data`) or wrapped; SL1 stays silent.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        guard securityLevel != .sl1 else { return TagAnswer(.mute) }
        var wrapped = false
        var frame = command
        if command.count >= 4, command[0] == 0x90, command[2] == 0, command[3] == 0 {
            // 90 INS 00 00 [Lc data] [Le]: ISO/IEC 7816-4 cases 1 to 4 (no native command is 90).
            let lc = command.count > 5 ? Int(command[4]) : 0
            if command.count <= 5 {
                wrapped = true
                frame = [command[1]]
            } else if command.count == 5 + lc || command.count == 6 + lc {
                wrapped = true
                frame = [command[1]] + Array(command[5..<5 + lc])
            }
        }
        let bytes: [UInt8]
        var writes = false
        if command.first == 0x00, command.count >= 4 {
            // An ISO/IEC 7816-4 command (no native command is 00): SELECT finds no virtual card
            // (virtual card selection is not modelled), anything else is not supported.
            bytes = command[1] == 0xA4 ? [0x6A, 0x82] : [0x6D, 0x00]
        } else {
            let (status, data, wrote) = handle(frame)
            writes = wrote
            bytes = wrapped ? data + [0x91, status.rawValue] : [status.rawValue] + data
        }
        let processing = Self.processingTime + (writes ? Self.writeTime : .zero)
        let framing = ISODEPFraming(
            cardFrameSize: answerToSelect.frameSize, readerFrameSize: context.readerFrameSize, usesCID: false,
            frameWaitingTime: answerToSelect.frameWaitingTime)
        let frames = framing.frames(commandLength: command.count, responseLength: bytes.count, processingTime: processing)
        return TagAnswer(.bytes(bytes), processingTime: processing, frames: frames, writesMemory: writes)
    }

    /// The time every command takes (a model value).
    static let processingTime: Duration = .microseconds(400)
    /// What an EEPROM write adds (a model value).
    static let writeTime: Duration = .milliseconds(2)

    /// Runs a native command; an error ends the session and whatever was pending.
    mutating func handle(_ frame: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard let ins = frame.first else { return fail(.formatError) }
        let data = Array(frame.dropFirst())
        let waiting = pending
        pending = nil
        let result: (MIFAREPlusStatus, [UInt8], Bool)
        switch (ins, securityLevel) {
        case (0x60, _): result = getVersion(data)
        case (0xAF, _):
            guard case .version(let part) = waiting else { return fail(.commandInvalid) }
            result = continueVersion(part: part, data)
        case (0xA8, .sl0): result = writePerso(data)
        case (0xAA, .sl0): result = commitPerso(data)
        case (0x70, .sl3), (0x73, .sl3): result = authenticateFirst(data)
        case (0x76, .sl3): result = authenticateNonFirst(data)
        case (0x72, .sl3):
            guard case .authentication(let keyBlock, let key, let rndB, let first, let ev1, let capabilities) = waiting else {
                return fail(.commandInvalid)
            }
            result = finishAuthentication(keyBlock: keyBlock, key: key, rndB: rndB, first: first, ev1: ev1, pcd: capabilities, data)
        case (0x78, .sl3):
            guard data.isEmpty else { return fail(.formatError) }
            session = nil
            result = (.ok, [], false)
        case (0x30...0x37, .sl3): result = read(ins, data)
        case (0xA0...0xA3, .sl3): result = write(ins, data)
        case (0xB0...0xB9, .sl3), (0xC2, .sl3), (0xC3, .sl3): result = value(ins, data)
        default: return fail(.commandInvalid)
        }
        if result.0 != .ok && result.0 != .additionalFrame { return fail(result.0) }
        return result
    }

    /// An error: the session ends.
    mutating func fail(_ status: MIFAREPlusStatus) -> (MIFAREPlusStatus, [UInt8], Bool) {
        session = nil
        pending = nil
        return (status, [], false)
    }

    // MARK: GetVersion

    /// GetVersion (`60`): hardware part behind `AF`; inside a session the command carries
    /// MAC(60 ‖ R_Ctr ‖ TI).
    mutating func getVersion(_ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        if let session {
            guard data.count == 8 else { return (.formatError, [], false) }
            guard session.mac([0x60] + MIFAREPlusSession.bytes(session.readCounter) + session.ti) == data else {
                return (.invalidMAC, [], false)
            }
        } else if !data.isEmpty {
            return (.formatError, [], false)
        }
        pending = .version(part: 1)
        return (.additionalFrame, model.versionPart, false)
    }

    /// The software part, then the UID and production data (MACed over all three in a session).
    mutating func continueVersion(part: Int, _ data: [UInt8]) -> (MIFAREPlusStatus, [UInt8], Bool) {
        guard data.isEmpty else { return (.formatError, [], false) }
        if part == 1 {
            pending = .version(part: 2)
            return (.additionalFrame, model.versionPart, false)
        }
        let last = uid + Self.productionData
        guard var current = session else { return (.ok, last, false) }
        guard current.readCounter < 0xFFFF else { return (.commandOverflow, [], false) }
        current.readCounter += 1
        let input = [0x90] + MIFAREPlusSession.bytes(current.readCounter) + current.ti + model.versionPart + model.versionPart + last
        guard let mac = current.mac(input) else { return (.generalFailure, [], false) }
        session = current
        return (.ok, last + mac, false)
    }
}
