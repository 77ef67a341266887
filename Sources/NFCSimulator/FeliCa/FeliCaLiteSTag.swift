import NFCTransport

/// A Sony FeliCa Lite-S (RC-S966): 14 user blocks of 16 bytes, a subtraction register and the
/// system blocks, answering Polling, Read Without Encryption and Write Without Encryption.
///
/// FeliCa Lite-S User's Manual (M624-E01) §3–§4. System code `88B4`; also `12FC` when SYS_OP in
/// the MC block enables NDEF. PMm `00 F1 00 00 00 01 43 00` (IC type `F1`; read parameter `01`,
/// write parameter `43`). Service `000B` reads, `0009` reads and writes; up to four blocks per
/// read, one per write. Every other command code, and every command addressed to another IDm,
/// goes unanswered, as the chip does.
///
/// Response times (the PMm maximum is the reader's timeout, these are what the card takes):
/// - Polling: 512·64/fc to time slot 0, 256·64/fc more per slot (see ``FeliCaTiming``).
/// - Read Without Encryption: 151 µs + 35 µs per block (PMm allows 302 µs·(n+2)); with the frame
///   times of ``AirTimeModel`` four reads of 4, 4, 4 and 1 blocks take ≈ 17.0 ms at 212 kbit/s.
/// - Write Without Encryption: 151 µs + 2.2 ms per block for the EEPROM cycle (PMm allows
///   1.21 ms·(n+4)).
/// - An error answer: 151 µs.
///
/// Not modelled: the 3DES card authentication (MAC, MAC_A, write with MAC, STATE's EXT_AUTH), so
/// a MAC_A read or a write with MAC fails verification (`B2`), and restricted blocks always
/// answer "authentication required" (`B1`).
public struct FeliCaLiteSTag: VirtualTag, Sendable, Hashable {
    /// The IDm used when none is given: manufacturer code `01 2E`, then a card number.
    public static let defaultIDm: [UInt8] = [0x01, 0x2E, 0x4C, 0x8A, 0x21, 0x5D, 0x77, 0x03]
    /// The PMm every FeliCa Lite-S reports.
    public static let defaultPMm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    /// The FeliCa Lite-S system code.
    public static let systemCode: UInt16 = 0x88B4
    /// The NFC Forum Type 3 Tag system code.
    public static let ndefSystemCode: UInt16 = 0x12FC
    /// Read service (random, read-only, no key) and read/write service (random, no key).
    public static let readOnlyService: UInt16 = 0x000B
    /// The read/write service `0009` (random access, no key); the only service Write Without Encryption accepts.
    public static let readWriteService: UInt16 = 0x0009

    /// How a new card is prepared.
    public enum Formatting: String, Sendable, Hashable, CaseIterable {
        /// Factory state: user blocks zero, no attribute block, SYS_OP `00` (no `12FC`).
        case blank
        /// NFC Forum Type 3: attribute block in S_PAD0 (Ver 1.0, Nbr 4, Nbw 1, Nmaxb 13, empty
        /// NDEF), SYS_OP `01` so the card answers Polling for `12FC`.
        case ndef
    }

    /// Manufacture ID.
    public internal(set) var idm: [UInt8]
    /// Manufacture parameter.
    public internal(set) var pmm: [UInt8]
    /// S_PAD0–S_PAD13 then REG: 15 blocks of 16 bytes.
    var userBlocks: [[UInt8]]
    /// ID block: IDm (8), DFC (2), arbitrary data (6).
    var idBlock: [UInt8]
    var cardKeyVersionBlock: [UInt8]
    var cardKey: [UInt8]
    var memoryConfiguration: FeliCaLiteSMemoryConfiguration
    /// WCNT, 24 bits, counting successful writes.
    public internal(set) var writeCount: UInt32

    // Volatile state (reset at power-on).
    var randomChallenge: [UInt8]?
    var slotPicker: FeliCaSlotPicker

    /// A card with the given IDm, blank or formatted for NFC Forum Type 3.
    ///
    /// - Precondition: `idm` holds 8 bytes.
    public init(idm: [UInt8] = FeliCaLiteSTag.defaultIDm, formatting: Formatting = .blank) {
        precondition(idm.count == 8, "a FeliCa IDm has 8 bytes")  // trap-ok: caller's rule (images and the catalogue check input first)
        self.idm = idm
        self.pmm = Self.defaultPMm
        var blocks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 15)
        var configuration = FeliCaLiteSMemoryConfiguration(bytes: FeliCaLiteSMemoryConfiguration.factory)
        if formatting == .ndef {
            blocks[0] = FeliCaType3Attributes(blocksPerRead: 4, blocksPerWrite: 1, maximumBlocks: 13).block
            configuration.bytes[3] = 0x01
        }
        self.userBlocks = blocks
        self.idBlock = idm + [UInt8](repeating: 0, count: 8)
        self.cardKeyVersionBlock = [UInt8](repeating: 0, count: 16)
        self.cardKey = [UInt8](repeating: 0, count: 16)
        self.memoryConfiguration = configuration
        self.writeCount = 0
        self.randomChallenge = nil
        self.slotPicker = FeliCaSlotPicker(idm: idm)
    }

    /// The memory configuration block MC (`88`).
    public var memoryConfigurationBlock: [UInt8] { memoryConfiguration.bytes }

    /// A block as stored (S_PAD0–13, REG, ID, CKV, CK, MC; `nil` for blocks the card computes or
    /// that do not exist).
    public func storedBlock(_ number: UInt16) -> [UInt8]? {
        switch number {
        case 0...FeliCaLiteSBlock.register: userBlocks[Int(number)]
        case FeliCaLiteSBlock.id: idBlock
        case FeliCaLiteSBlock.cardKeyVersion: cardKeyVersionBlock
        case FeliCaLiteSBlock.cardKey: cardKey
        case FeliCaLiteSBlock.memoryConfiguration: memoryConfiguration.bytes
        default: nil
        }
    }

    // MARK: VirtualTag

    /// The IDm.
    public var identifier: [UInt8] { idm }

    /// FeliCa parameters: the PMm, system code `88B4` and 212 kbit/s as the highest bit rate.
    public var parameters: TargetInfo.Parameters {
        .felica(.init(pmm: pmm, systemCode: Self.systemCode, maximumBitRate: .kbps212))
    }

    /// Forgets the random challenge (RC) and restarts the time-slot choice for Polling.
    public mutating func powerOn() {
        randomChallenge = nil
        slotPicker = FeliCaSlotPicker(idm: idm)
    }

    /// One Polling exchange (system code `FFFF`, answered in time slot 0).
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        feliCaActivationFrames()
    }

    /// Answers Polling, Read Without Encryption and Write Without Encryption; anything else, or a command for
    /// another IDm, gets no answer.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        if let polling = FeliCaPollingRequest(command) {
            return respond(to: polling)
        }
        guard let addressed = FeliCaAddressedCommand(command), addressed.idm == idm else { return .mute }
        switch addressed.code {
        case FeliCaCommandCode.readWithoutEncryption:
            return readWithoutEncryption(addressed.parameters)
        case FeliCaCommandCode.writeWithoutEncryption:
            return writeWithoutEncryption(addressed.parameters)
        default:
            return .mute
        }
    }

    /// Polling: answers for `88B4` (and `12FC` with SYS_OP `01`), `FF` bytes matching anything.
    private mutating func respond(to polling: FeliCaPollingRequest) -> TagAnswer {
        let code: UInt16
        if polling.matches(Self.systemCode) {
            code = Self.systemCode
        } else if memoryConfiguration.ndefEnabled, polling.matches(Self.ndefSystemCode) {
            code = Self.ndefSystemCode
        } else {
            return .mute
        }
        let slot = slotPicker.pick(timeSlotNumber: polling.timeSlotNumber)
        let response = polling.response(idm: idm, pmm: pmm, systemCode: code, communicationPerformance: [0x00, 0x01])
        return .bytes(response, processingTime: FeliCaTiming.pollingResponseDelay(slot: slot))
    }

    // MARK: Timing

    static let baseProcessing = FeliCaTiming.microseconds(151)
    static func readProcessing(blocks: Int) -> Duration { baseProcessing + FeliCaTiming.microseconds(35) * blocks }
    static func writeProcessing(blocks: Int) -> Duration { baseProcessing + FeliCaTiming.microseconds(2_200) * blocks }
}
