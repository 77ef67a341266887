import NFCTransport

/// A virtual ISO/IEC 15693 vicinity tag (NFC Forum Type 5 Tag): an NXP ICODE SLIX2 or an ST25DV16K.
///
/// The tag answers the requests of ISO/IEC 15693-3 §10 byte for byte, including error
/// responses (response flags 0x01 and an error code of its Table 7) and silence where the standard or
/// the data sheet says the tag stays silent: requests for another UID, non-addressed requests in
/// the Quiet state, select-mode requests when not selected, malformed inventories, custom
/// commands for another IC manufacturer.
///
/// Frames are as `TagConnection` carries them: the request from its flags byte up to its
/// parameters and the response from its flags byte, both without CRC. The UID is held most
/// significant byte first (`E0 04 …`) and sent least significant byte first. Commands that give
/// the option flag no meaning ignore it; the protocol-extension flag is ignored throughout.
///
/// Not modelled: the SLIX2's passwords, privacy mode, page protection, EAS and destroy commands
/// (their settings are kept in ``slix2`` and the image); the ST25DV16K's areas, passwords,
/// mailbox, I²C side and configuration registers (the tag behaves as delivered: one open area).
public struct ISO15693Tag: Sendable, Hashable {
    /// The states a powered tag is in (ISO/IEC 15693-3:2009, VICC states).
    public enum State: String, Sendable, Hashable {
        /// Answers non-addressed and addressed requests.
        case ready
        /// Answers addressed requests only (after Stay Quiet).
        case quiet
        /// Answers select-mode, non-addressed and addressed requests (after Select).
        case selected
    }

    /// The chip.
    public let model: Model
    /// The UID, most significant byte first (`E0`, IC manufacturer code, …).
    public let uid: [UInt8]
    /// The memory the RF interface reaches, `model.blockCount` blocks of 4 bytes.
    public internal(set) var memory: [UInt8]
    /// Per block: locked by Lock Block (its security status bit 0).
    public internal(set) var lockedBlocks: [Bool]
    /// Application family identifier.
    public internal(set) var afi: UInt8
    /// Data storage format identifier.
    public internal(set) var dsfid: UInt8
    /// Whether Lock AFI has been executed.
    public internal(set) var isAFILocked: Bool
    /// Whether Lock DSFID has been executed.
    public internal(set) var isDSFIDLocked: Bool
    /// The SLIX2's own settings (`nil` for other models).
    public internal(set) var slix2: SLIX2Settings?
    /// The volatile state; power-on resets it to Ready.
    public internal(set) var state: State = .ready

    /// The UID in transmission order (least significant byte first).
    var wireUID: [UInt8] { uid.reversed() }

    /// The blocks as arrays of 4 bytes.
    public var blocks: [[UInt8]] {
        stride(from: 0, to: memory.count, by: model.blockSize).map { Array(memory[$0..<($0 + model.blockSize)]) }
    }

    /// One block's bytes, or `nil` past the end of memory.
    public func block(_ number: Int) -> [UInt8]? {
        guard number >= 0, number < model.blockCount else { return nil }
        let start = number * model.blockSize
        return Array(memory[start..<(start + model.blockSize)])
    }

    /// Rebuilds a tag from checked parts; every initializer ends here.
    init(
        model: Model, uid: [UInt8], memory: [UInt8], lockedBlocks: [Bool], afi: UInt8, dsfid: UInt8,
        isAFILocked: Bool, isDSFIDLocked: Bool, slix2: SLIX2Settings?
    ) {
        self.model = model
        self.uid = uid
        self.memory = memory
        self.lockedBlocks = lockedBlocks
        self.afi = afi
        self.dsfid = dsfid
        self.isAFILocked = isAFILocked
        self.isDSFIDLocked = isDSFIDLocked
        self.slix2 = slix2
    }
}

extension ISO15693Tag: VirtualTag {
    /// The UID, most significant byte first.
    public var identifier: [UInt8] { uid }

    /// ISO/IEC 15693 parameters: the DSFID.
    public var parameters: TargetInfo.Parameters { .iso15693(.init(dsfid: dsfid)) }

    /// Returns to the Ready state (a Quiet or Selected tag forgets it).
    public mutating func powerOn() {
        state = .ready
    }

    /// The reader's Inventory (one slot, no mask) and the tag's answer (ISO/IEC 15693-3:2009 §10.3.1).
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        [AirFrame(reader: .bytes(3), tag: .bytes(10))]
    }

    /// Answers one request (flags byte first, without CRC); silent where the class comment says the tag stays silent,
    /// and after Stay Quiet, which has no response.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        guard command.count >= 2 else { return .mute }
        let flags = ISO15693RequestFlags(rawValue: command[0])
        let code = command[1]
        if flags.contains(.inventory) {
            return code == ISO15693Command.inventory ? inventory(command, flags: flags) : .mute
        }
        guard code != ISO15693Command.inventory else { return .mute }
        guard let request = route(command, flags: flags, code: code) else { return .mute }
        return execute(request)
    }

    /// Applies the addressing and state rules of ISO/IEC 15693-3:2009 (VICC states, §7.3.1): returns the
    /// request this tag shall execute, or `nil` when it stays silent.
    private mutating func route(_ frame: [UInt8], flags: ISO15693RequestFlags, code: UInt8) -> ISO15693Request? {
        var offset = 2
        if ISO15693Command.hasManufacturerCode(code) {
            // A custom or proprietary request for another manufacturer's chips is not for us.
            guard frame.count > offset, frame[offset] == model.icManufacturerCode else { return nil }
            offset += 1
        }
        var leading: UInt8?
        if code == ISO15693Command.extendedGetSystemInformation, model.supportsExtendedCommands {
            guard frame.count > offset else { return nil }
            leading = frame[offset]
            offset += 1
        }
        // Select and address together describe no valid request.
        if flags.contains(.select), flags.contains(.address) { return nil }
        let mustBeAddressed = code == ISO15693Command.stayQuiet || code == ISO15693Command.select
        if flags.contains(.address) {
            guard frame.count >= offset + 8 else { return nil }
            guard Array(frame[offset..<(offset + 8)]) == wireUID else {
                // A selected tag that sees Select for another UID returns to Ready (§10.4.6).
                if code == ISO15693Command.select, state == .selected { state = .ready }
                return nil
            }
            offset += 8
        } else if mustBeAddressed {
            return nil
        } else if flags.contains(.select) {
            guard state == .selected else { return nil }
        } else {
            guard state != .quiet else { return nil }
        }
        return ISO15693Request(
            flags: flags, code: code, parameters: frame[offset...], leadingParameter: leading, frame: frame
        )
    }

    /// Runs one routed request.
    private mutating func execute(_ request: ISO15693Request) -> TagAnswer {
        typealias C = ISO15693Command
        let extended = model.supportsExtendedCommands
        switch request.code {
        case C.stayQuiet:
            state = .quiet
            return .mute
        case C.select:
            guard request.parameters.isEmpty else { return error(.notRecognized, request) }
            state = .selected
            return ok([], request)
        case C.resetToReady:
            guard request.parameters.isEmpty else { return error(.notRecognized, request) }
            state = .ready
            return ok([], request)
        case C.readSingleBlock: return readSingleBlock(request, wide: false)
        case C.writeSingleBlock: return writeSingleBlock(request, wide: false)
        case C.lockBlock: return lockBlock(request, wide: false)
        case C.readMultipleBlocks: return readMultipleBlocks(request, wide: false)
        case C.writeMultipleBlocks: return writeMultipleBlocks(request, wide: false)
        case C.getMultipleBlockSecurityStatus: return multipleBlockSecurityStatus(request, wide: false)
        case C.extendedReadSingleBlock where extended: return readSingleBlock(request, wide: true)
        case C.extendedWriteSingleBlock where extended: return writeSingleBlock(request, wide: true)
        case C.extendedLockBlock where extended: return lockBlock(request, wide: true)
        case C.extendedReadMultipleBlocks where extended: return readMultipleBlocks(request, wide: true)
        case C.extendedWriteMultipleBlocks where extended: return writeMultipleBlocks(request, wide: true)
        case C.extendedGetMultipleBlockSecurityStatus where extended:
            return multipleBlockSecurityStatus(request, wide: true)
        case C.writeAFI, C.lockAFI, C.writeDSFID, C.lockDSFID: return identifierCommand(request)
        case C.getSystemInformation: return systemInformation(request)
        case C.extendedGetSystemInformation where extended: return extendedSystemInformation(request)
        case C.customRange, C.proprietaryRange: return custom(request)
        default: return error(.notSupported, request)
        }
    }
}
