import NFCTransport

/// A virtual NFC Forum Type 1 Tag: a Broadcom Topaz 96 or Topaz 512, byte for byte as its data
/// sheet describes it.
///
/// The tag answers REQA/WUPA with ATQA `0C 00` and takes part in no anticollision (no SAK, no
/// SELECT); the reader learns its UID with RID. Every other command carries the four UID bytes
/// RID gave (the "UID echo") and gets no answer when they are wrong. Commands: RID, RALL, READ,
/// WRITE-E, WRITE-NE, and on Topaz 512 also RSEG, READ8, WRITE-E8 and WRITE-NE8. A write the
/// chip bars (block 00h, 0Dh, a locked block, WRITE-E on a lock block) is skipped without an
/// answer, and the tag waits for the next command. WRITE-NE only sets bits.
///
/// BCM20203T512 Advance Data Sheet (20203T512-DS102-R, January 2011): "Command Format",
/// Tables 7–14, Figures 10–17; NFC Forum Type 1 Tag Operation 1.1 for the memory layouts.
public struct Type1Tag: TagImageRepresentable, Hashable {
    /// The chip modelled.
    public let model: Model
    /// The whole memory, block 00h first (UID, data, reserved, lock and OTP bytes).
    public internal(set) var memory: [UInt8]
    /// Whether the tag has been woken and answered RID-style commands (the data sheet's Ready
    /// state); a powered tag that was not activated stays silent.
    public internal(set) var isReady = false

    /// The command codes (data sheet Table 6 and "Command Format"); the first byte of every
    /// command, sent in a 7-bit short frame.
    enum Command: UInt8 {
        case readIdentification = 0x78
        case readAll = 0x00
        case read = 0x01
        case writeErase = 0x53
        case writeNoErase = 0x1A
        case readSegment = 0x10
        case read8 = 0x02
        case writeErase8 = 0x54
        case writeNoErase8 = 0x1B
    }

    /// The extra time an erase-and-write takes beyond the normal frame delay: FDT n = 554
    /// against n = 9 for reads, (554 − 9) × 128 / fc ≈ 5.14 ms (data sheet Table 14).
    public static let eraseWriteTime: Duration = .nanoseconds(5_144_543)
    /// The same for a write without erase: n = 281, (281 − 9) × 128 / fc ≈ 2.57 ms.
    public static let noEraseWriteTime: Duration = .nanoseconds(2_567_552)

    /// A factory-fresh chip.
    /// - Parameters:
    ///   - model: the chip.
    ///   - uid: the 7-byte UID (UID-0 first, as stored in block 00h; UID-6 is Broadcom's `25`h on
    ///     real chips); `nil` for a deterministic `<model> 5A 7B 8C 21 80 25`.
    ///   - blank: `true` leaves the data blocks zero (no capability container); otherwise the
    ///     tag is NDEF-formatted with an empty message, as Topaz tags ship.
    public init(model: Model, uid: [UInt8]? = nil, blank: Bool = false) {
        let uid = uid ?? [model.headerROM0, 0x5A, 0x7B, 0x8C, 0x21, 0x80, 0x25]
        precondition(uid.count == 7, "a Type 1 chip has a 7-byte UID")  // trap-ok: caller's rule
        var memory = [UInt8](repeating: 0, count: model.memorySize)
        memory.replaceSubrange(0..<7, with: uid)
        if !blank { memory.replaceSubrange(8..<(8 + model.formattedData.count), with: model.formattedData) }
        memory.replaceSubrange(0x0E * 8..<0x0E * 8 + 2, with: model.factoryLocks)
        self.init(model: model, memory: memory)
    }

    init(model: Model, memory: [UInt8]) {
        self.model = model
        self.memory = memory
    }

    /// The 7-byte UID from block 00h.
    public var uid: [UInt8] { Array(memory[0..<7]) }

    /// The 8 bytes of a block.
    public func block(_ number: Int) -> [UInt8] { Array(memory[number * 8..<number * 8 + 8]) }

    /// Whether a block's lock bit is set.
    public func isLocked(block: Int) -> Bool {
        let (address, mask) = model.lockBit(of: block)
        return address < memory.count && memory[address] & mask != 0
    }

    // MARK: VirtualTag

    /// UID-0…UID-3, what RID reports and every command echoes.
    public var identifier: [UInt8] { Array(memory[0..<4]) }

    /// ATQA `0C 00` (`00` first on the air: no bit frame anticollision), no SAK (data sheet
    /// Figure 10 and Table 7; NFC Forum Digital Protocol 1.0 §4.6.3).
    public var parameters: TargetInfo.Parameters { .iso14443A(.init(atqa: 0x0C00, sak: 0x00)) }

    /// Power-on: the tag waits for REQA or WUPA.
    public mutating func powerOn() {
        isReady = false
    }

    /// REQA → ATQA, then RID → HR0 HR1 UID-0…3: the tag is Ready (≈ 3.0 ms at 106 kbit/s).
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        isReady = true
        return Self.activationFrames
    }

    /// The frames of ``activate(context:)``: REQA (7 bits) → ATQA (2 bytes, no CRC); RID
    /// (7 bytes in one-byte frames) → 6 bytes and CRC.
    public static let activationFrames: [AirFrame] = [
        AirFrame(reader: .bits(7), tag: .bytes(2, crc: false)),
        AirFrame(reader: .type1Command(7), tag: .bytes(6)),
    ]

    /// Answers one command (without CRC) while Ready: 7 bytes (code, ADD, DATA, UID-0…3) or,
    /// for the 8-byte commands, 14 (code, ADD8/ADDS, 8 data bytes, UID-0…3).
    ///
    /// An unknown code, a frame of the wrong length, a wrong UID echo, an address beyond the
    /// memory or a barred write gets no answer and leaves the tag Ready (the data sheet's
    /// "immediately change to CE status"); the next command is served as usual.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        guard isReady, let code = command.first, let known = Command(rawValue: code) else { return .mute }
        let isBlockCommand = [.readSegment, .read8, .writeErase8, .writeNoErase8].contains(known)
        if isBlockCommand && !model.hasBlockCommands { return .mute }
        guard command.count == (isBlockCommand ? 14 : 7) else { return .mute }
        let echo = Array(command[(command.count - 4)...])
        if known != .readIdentification && echo != identifier { return .mute }
        let address = Int(command[1])
        switch known {
        case .readIdentification:
            return .bytes([model.headerROM0, model.headerROM1] + identifier)
        case .readAll:
            return .bytes([model.headerROM0, model.headerROM1] + Array(memory[0..<120]))
        case .read:
            guard let offset = byteOffset(address) else { return .mute }
            return .bytes([command[1], memory[offset]])
        case .writeErase, .writeNoErase:
            guard let offset = byteOffset(address) else { return .mute }
            let erase = known == .writeErase
            guard mayWrite(block: offset / 8, erase: erase) else { return .mute }
            memory[offset] = erase ? command[2] : memory[offset] | command[2]
            return .bytes(
                [command[1], memory[offset]], processingTime: erase ? Self.eraseWriteTime : Self.noEraseWriteTime, writesMemory: true)
        case .readSegment:
            let segment = address >> 4
            guard address & 0x0F == 0, segment < model.blockCount / 16 else { return .mute }
            return .bytes([command[1]] + Array(memory[segment * 128..<segment * 128 + 128]))
        case .read8:
            guard address < model.blockCount else { return .mute }
            return .bytes([command[1]] + block(address))
        case .writeErase8, .writeNoErase8:
            let erase = known == .writeErase8
            guard address < model.blockCount, mayWrite(block: address, erase: erase) else { return .mute }
            for index in 0..<8 {
                let offset = address * 8 + index
                memory[offset] = erase ? command[2 + index] : memory[offset] | command[2 + index]
            }
            return .bytes(
                [command[1]] + block(address), processingTime: erase ? Self.eraseWriteTime : Self.noEraseWriteTime, writesMemory: true)
        }
    }

    /// The memory offset of a single-byte address (block in bits 6–3, byte in bits 2–0, data
    /// sheet Table 10); the single-byte commands reach blocks 00h–0Eh only.
    private func byteOffset(_ address: Int) -> Int? {
        let block = address >> 3
        return block <= 0x0E ? block * 8 + (address & 0x07) : nil
    }

    /// Whether a write reaches a block: never block 00h (the UID) or 0Dh (reserved); with erase
    /// never a lock block; and never a locked block, except that WRITE-NE sets lock and OTP bits
    /// in the lock blocks (data sheet Figures 12–13, "Lock Control/Status Bits").
    func mayWrite(block: Int, erase: Bool) -> Bool {
        if block == 0x00 || block == 0x0D { return false }
        if model.isLockBlock(block) { return !erase }
        return !isLocked(block: block)
    }
}
