import NFCBytes
import NFCTransport

/// A PN532 emulated from NXP's *PN532 User Manual* (UM0701-02), in front of any reader driver —
/// the simulated field, typically, so that libnfc, libfreefare and nfcpy read our virtual tags as
/// they read real ones.
///
/// The host's bytes go in through ``receive(_:)``; the chip's bytes (ACK, response frames,
/// error frames) go out through the `output` closure, in order. As the manual has it (§6.2.1):
/// - a valid information frame is acknowledged at once (ACK), then answered with a response
///   frame when the command completes; one command runs at a time;
/// - an ACK from the host while a command runs aborts it (§6.2.1.3): no response follows;
/// - a NACK from the host asks for the last response frame again (§6.2.1.4);
/// - a frame with a wrong length or data checksum is ignored (no ACK: the host's time-out makes
///   it send again);
/// - an unknown command, or one with parameters the chip cannot take, gets the error frame
///   (§6.2.1.5) after its ACK.
public actor VirtualPN532 {
    /// The firmware GetFirmwareVersion reports: IC `32` (PN532), version 1.6, support `07`
    /// (ISO/IEC 14443 A and B, ISO 18092), the values of shipped PN532 v1.6 chips (§7.2.2).
    public static let firmware: [UInt8] = [0x32, 0x01, 0x06, 0x07]

    let driver: any ReaderDriver
    /// The chip's RF side as a target: what an initiator sees once the host runs TgInitAsTarget.
    public nonisolated let targetField: PN532TargetField
    let output: @Sendable ([UInt8]) async -> Void
    let meter = AirTimeMeter()

    private var decoder = PN532FrameDecoder()
    private var lastResponse: PN532Frame?
    /// The last command queued; each waits for the one before it.
    var running: Task<Void, Never>?
    /// Every command queued and not finished, so that the host's ACK aborts them all.
    var queued: [Int: Task<Void, Never>] = [:]
    private var runningID = 0

    /// CIU and SFR registers the host wrote or reads (UM0701-02 §7.2.4, PN512 register map);
    /// unwritten ones read as their reset values from ``CIURegister``.
    var registers: [UInt16: UInt8] = [:]
    /// The RF field, as RFConfiguration item 1 sets it (on after the first polling command).
    var fieldOn = false
    /// Retries for passive activation (RFConfiguration item 5, third byte); `FF` waits for a target.
    var passiveActivationRetries: UInt8 = 0xFF
    /// SetParameters flags (§7.2.9); bit 4 `fAutomaticRATS` is set by default (with it clear,
    /// InListPassiveTarget does not send RATS, so it reports no ATS).
    var parameters: UInt8 = 0x14
    /// The last error code, for GetGeneralStatus.
    var lastError: UInt8 = 0
    /// Cards InDeselect put to sleep (HLTA, S(DESELECT), HLTB): they ignore the REQ of the next
    /// InListPassiveTarget (ISO/IEC 14443-3 §6.3.2, §7.4.6) until the field goes off, which is
    /// how a host lists the cards of a field one at a time (libnfc's `nfc-list`).
    var halted: Set<[UInt8]> = []
    /// The activated targets, numbered from 1 (Tg), at most two (§7.3.5).
    var targets: [ActiveTarget] = []
    /// Per target number, the card's side of ISO-DEP for hosts that run it themselves through
    /// InCommunicateThru.
    var isoDEPCards: [UInt8: ISODEPCardSide] = [:]

    /// A target InListPassiveTarget activated.
    struct ActiveTarget {
        let number: UInt8
        let info: TargetInfo
        /// The BrTy it was listed with (§7.3.5): 0 106A, 1 FeliCa 212, 2 FeliCa 424, 3 106B.
        let modulation: UInt8
        var connection: (any TagConnection)?
        var selected: Bool
    }

    /// What the host asked for so far: commands by code, and bytes each way on the line.
    public struct Statistics: Sendable, Hashable {
        /// Command frames accepted, by command code.
        public var commands: [UInt8: Int] = [:]
        /// Bytes the host wrote.
        public var bytesFromHost = 0
        /// Bytes the chip wrote (ACKs, responses, error frames).
        public var bytesToHost = 0
        /// Nothing yet.
        public init() {}
        /// Every command accepted.
        public var commandCount: Int { commands.values.reduce(0, +) }
        /// How long the line's bytes take at `baudRate` (10 bits a byte): the serial link's
        /// minimum for this dialog, whatever the chip and the host do.
        public func lineTime(baudRate: Int) -> Duration {
            .microseconds((bytesFromHost + bytesToHost) * 10 * 1_000_000 / baudRate)
        }
    }

    /// What the host asked for so far.
    public private(set) var statistics = Statistics()

    /// A chip in front of `driver` that writes its bytes to the host with `output`; as a target
    /// it is the card in `targetField` (by default a field no initiator reads: TgInitAsTarget
    /// then waits until the host aborts it, as on a board with no reader near).
    public init(
        driver: any ReaderDriver, targetField: PN532TargetField = PN532TargetField(name: "pn532"),
        output: @escaping @Sendable ([UInt8]) async -> Void
    ) {
        self.driver = driver
        self.targetField = targetField
        self.output = output
    }

    /// Takes bytes the host wrote to the line.
    public func receive(_ bytes: [UInt8]) async {
        statistics.bytesFromHost += bytes.count
        for result in decoder.feed(bytes) {
            guard case .success(let frame) = result else { continue }  // checksum errors: no ACK, as the chip does
            switch frame {
            case .ack:
                abortRunningCommand()
            case .nack:
                if let lastResponse { await send(lastResponse.bytes) }
            case .syntaxError:
                continue
            case .information(let tfi, let data):
                await send(PN532Frame.ack.bytes)
                guard tfi == PN532Frame.hostToPN532, let code = data.first else {
                    await respond(.syntaxError)
                    continue
                }
                statistics.commands[code, default: 0] += 1
                start(code, Array(data.dropFirst()))
            }
        }
    }

    /// Aborts every command queued or running: the host sent an ACK (UM0701-02 §6.2.1.3). A
    /// command aborted before it starts does nothing; one aborted while it runs sends no
    /// response. The next command still waits for them to wind down.
    private func abortRunningCommand() {
        for task in queued.values { task.cancel() }
    }

    /// Runs one command after the ones before it, and sends its response unless aborted.
    private func start(_ code: UInt8, _ parameters: [UInt8]) {
        let previous = running
        runningID += 1
        let id = runningID
        let task = Task {
            await previous?.value
            guard !Task.isCancelled else { return self.forget(id) }
            let answer = await self.execute(code, parameters)
            if !Task.isCancelled { await self.respond(answer) }
            self.forget(id)
        }
        queued[id] = task
        running = task
    }

    private func forget(_ id: Int) {
        queued[id] = nil
    }

    private func respond(_ frame: PN532Frame) async {
        lastResponse = frame
        await send(frame.bytes)
    }

    private func send(_ bytes: [UInt8]) async {
        statistics.bytesToHost += bytes.count
        await output(bytes)
    }

    /// The response frame to one command: the command's answer, or the error frame.
    private func execute(_ code: UInt8, _ parameters: [UInt8]) async -> PN532Frame {
        guard let command = PN532Command(rawValue: code) else { return .syntaxError }
        guard let bytes = await answer(command, parameters) else { return .syntaxError }
        return .response(to: code, bytes)
    }

    /// The bytes after the response code, or nil for parameters the chip refuses (error frame).
    private func answer(_ command: PN532Command, _ parameters: [UInt8]) async -> [UInt8]? {
        switch command {
        case .diagnose: return await diagnose(parameters)
        case .getFirmwareVersion: return Self.firmware
        case .getGeneralStatus: return generalStatus()
        case .readRegister: return readRegisters(parameters)
        case .writeRegister: return writeRegisters(parameters)
        case .setSerialBaudRate: return parameters.count == 1 && parameters[0] <= 0x08 ? [] : nil
        case .setParameters:
            guard parameters.count == 1 else { return nil }
            self.parameters = parameters[0]
            return []
        case .samConfiguration: return (1...3).contains(parameters.count) && (1...4).contains(parameters[0]) ? [] : nil
        case .powerDown: return parameters.isEmpty ? nil : [PN532Status.success.rawValue]
        case .rfConfiguration: return await rfConfiguration(parameters)
        case .inListPassiveTarget: return await listPassiveTargets(parameters)
        case .inAutoPoll: return await autoPoll(parameters)
        case .inDataExchange: return await dataExchange(parameters)
        case .inCommunicateThru: return await communicateThru(parameters)
        case .inRelease: return await release(parameters)
        case .inDeselect: return deselect(parameters)
        case .inSelect: return await select(parameters)
        // Target mode (§7.3.14 to §7.3.21): the chip is the card an initiator reads through
        // `targetField`; the commands wait for that initiator as they wait for the RF.
        case .tgInitAsTarget:
            guard let target = PN532TargetField.TargetParameters(parameters, piccFlag: self.parameters & 0x20 != 0) else { return nil }
            await releaseAll()
            if parameters[0] & 0x02 != 0 {
                // DEPOnly: no NFC-DEP initiator ever comes; the command waits until the host aborts it.
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
                return nil
            }
            return await targetField.offer(target)
        case .tgGetData, .tgGetInitiatorCommand:
            return parameters.isEmpty ? await targetField.hostGetData() : nil
        case .tgSetData, .tgResponseToInitiator:
            return await targetField.hostSetData(parameters, more: false)
        case .tgSetMetaData:
            return await targetField.hostSetData(parameters, more: true)
        case .tgGetTargetStatus:
            return parameters.isEmpty ? await targetField.hostTargetStatus() : nil
        case .tgSetGeneralBytes:
            return [PN532Status.success.rawValue]
        case .inJumpForDEP, .inJumpForPSL:
            // No NFC-DEP (ISO 18092) target is ever in the field: the activation times out (§7.3.3).
            guard parameters.count >= 3 else { return nil }
            return [PN532Status.timeout.rawValue]
        default:
            // Recognised but not emulated (GPIO, InATR/InPSL): the error frame.
            return nil
        }
    }
}
