import Logging
import NFCBytes
import NFCTransport

/// A connection to a tag in a PC/SC reader.
///
/// ISO-DEP targets get APDUs passed through. Storage tags get their native frames sent in a
/// transparent session when the reader has one (PC/SC Part 3 §3.2.2.1.8–9), otherwise READ and
/// WRITE carried as `FF B0`/`FF D6` (`PseudoAPDUTranslation`), or, on a reader whose
/// ``ReaderProfile`` has one, through its vendor path (the ACR122U's Direct Transmit, the uTrust's
/// FeliCa pseudo-APDUs). "Air time" is the wall-clock time
/// spent in `SCardTransmit`. Every call into PC/SC runs on the connection's own queue
/// (``BlockingCalls``), off the cooperative pool.
final class PCSCConnection: TagConnection {
    enum Mode: Equatable {
        case passThrough
        case transparentSession
        case pseudoAPDUs
        case directTransmit
    }

    let target: TargetInfo
    let limits: ExchangeLimits
    let bitRate: BitRate
    let meter: AirTimeMeter
    let mode: Mode
    /// What the reader is.
    let profile: ReaderProfile
    private let card: PCSCCard
    private let calls: BlockingCalls

    init(card: PCSCCard, target: TargetInfo, mode: Mode, profile: ReaderProfile = .generic, meter: AirTimeMeter) {
        self.card = card
        self.profile = profile
        calls = BlockingCalls(label: "OpenCoreNFC.PCSCConnection")
        self.target = target
        self.mode = mode
        self.meter = meter
        bitRate =
            switch target.parameters {
            case .felica(let f): f.maximumBitRate
            default: .kbps106  // PC/SC does not say; ISO/IEC 15693 has no BitRate value
            }
        let limits: ExchangeLimits =
            switch mode {
            case .passThrough:
                // The reader's APDU sizes: the ACR122U's CCID descriptor announces short-APDU
                // exchange (dwFeatures 00020040), so pcscd never sends it an extended APDU.
                ExchangeLimits(
                    maxCommandLength: profile.apduLimits.command, maxResponseLength: profile.apduLimits.response,
                    extendedLengthAPDUs: profile.apduLimits.extended, nativeCommands: .all)
            case .pseudoAPDUs where target.technology == .felica && profile == .utrust3700f:
                // FeliCa through the uTrust's own pseudo-APDUs (``SCMFeliCa``): one short APDU
                // each way, the IDm not sent (8 bytes fewer than the frame) and sent back.
                ExchangeLimits(maxCommandLength: 255, maxResponseLength: 256 - 2 + 1, extendedLengthAPDUs: false, nativeCommands: .all)
            case .directTransmit:
                ExchangeLimits(
                    maxCommandLength: DirectTransmit.maxFrame, maxResponseLength: DirectTransmit.maxAnswer, extendedLengthAPDUs: false,
                    nativeCommands: .all)
            case .transparentSession:
                // A short APDU of 255 bytes less the time limit and the transceive object's header.
                ExchangeLimits(maxCommandLength: 240, maxResponseLength: 240, extendedLengthAPDUs: false, nativeCommands: .all)
            case .pseudoAPDUs:
                ExchangeLimits(
                    maxCommandLength: 255, maxResponseLength: 256, extendedLengthAPDUs: false,
                    nativeCommands: .readAndWriteOnly(readLength: target.technology == .iso15693 ? 4 : 16))
            }
        var named = limits
        named.reader = Self.readerPhrase(profile: profile, readerName: card.reader)
        self.limits = named
    }

    /// The reader as the engines' errors name it (``ExchangeLimits/reader``): its model and
    /// profile, or pcscd's name for a reader taken as generic.
    static func readerPhrase(profile: ReaderProfile, readerName: String) -> String {
        profile == .generic
            ? "the PC/SC reader \"\(readerName)\" (profile generic)" : "\(profile.readerModel) (profile \(profile.rawValue))"
    }

    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8] {
        try await calls.run { () throws(TransportError) -> [UInt8] in try self.transceiveBlocking(command, timeout: timeout) }
    }

    private func transceiveBlocking(_ command: [UInt8], timeout: Duration) throws(TransportError) -> [UInt8] {
        let clock = ContinuousClock()
        let start = clock.now
        var sent = 0
        let answer: [UInt8]
        do throws(TransportError) {
            switch mode {
            case .passThrough:
                sent = command.count
                answer = try transmit(command)
            case .transparentSession:
                answer = try transparent(command, timeout: timeout, sent: &sent)
            case .directTransmit:
                let (pn532, framing) = try DirectTransmit.plan(command, target: target)
                guard let apdu = DirectTransmit.wrap(pn532) else {
                    throw TransportError(.frameTooLong, "a frame of \(command.count) B does not fit Direct Transmit")
                }
                sent = apdu.count
                answer = try DirectTransmit.answer(transmit(apdu), to: pn532, framing: framing, reader: card.reader)
            case .pseudoAPDUs where target.technology == .felica && profile == .utrust3700f:
                let apdu = try SCMFeliCa.apdu(for: command, reader: card.reader)
                sent = apdu.count
                answer = try SCMFeliCa.answer(transmit(apdu), to: command, reader: card.reader)
            case .pseudoAPDUs:
                answer = try pseudoAPDUs(command, sent: &sent)
            }
        } catch {
            meter.record(sent: sent, received: 0, airTime: start.duration(to: clock.now))
            throw error
        }
        meter.record(sent: sent, received: answer.count, airTime: start.duration(to: clock.now))
        return answer
    }

    /// A READ or WRITE as READ and UPDATE BINARY. A reader's "no answer from the card" (`64 00`,
    /// `64 01`) is a time-out, not a refusal; a uTrust's READ reads on from page 0 at the first
    /// page that does not exist (`6A 82`), as the tag's own READ rolls over.
    private func pseudoAPDUs(_ command: [UInt8], sent: inout Int) throws(TransportError) -> [UInt8] {
        var plan = try PseudoAPDUTranslation.plan(command, technology: target.technology, profile: profile, reader: limits.reader)
        var answers: [(data: [UInt8], sw: UInt16)] = []
        var index = 0
        var rolledOver = false
        while index < plan.apdus.count {
            let apdu = plan.apdus[index]
            sent += apdu.count
            let reply = try PseudoAPDU.split(transmit(apdu), doing: "READ/UPDATE BINARY")
            if reply.sw == 0x6400 || reply.sw == 0x6401 {
                throw TransportError(
                    .timeout, "the tag on \(card.reader) did not answer (\(profile.readerModel) reports \(String(reply.sw, radix: 16)))")
            }
            if reply.sw == 0x6A82, profile == .utrust3700f, !plan.isWrite, index > 0, !rolledOver {
                rolledOver = true
                let rest = plan.apdus.count - index
                plan.apdus.replaceSubrange(index..., with: (0..<rest).map { PseudoAPDU.readBinary(address: $0, length: 4) })
                continue
            }
            answers.append(reply)
            if reply.sw != 0x9000 { break }
            index += 1
        }
        let read = answers.flatMap(\.data)
        if target.technology != .iso15693, !plan.isWrite, answers.allSatisfy({ $0.sw == 0x9000 }), read.count != 16 {
            // A reader that answers one page per READ BINARY (Identiv's) cannot be told from its
            // answer what it left out: say so rather than hand on a short READ.
            throw TransportError(
                .protocolViolation,
                "\(card.reader) answered READ BINARY with \(read.count) bytes, not a READ's 16; if it is an Identiv uTrust, use --reader-profile utrust3700f (or \(ReaderProfile.environmentVariable))"
            )
        }
        return PseudoAPDUTranslation.answer(answers, plan: plan)
    }

    private func transparent(_ frame: [UInt8], timeout: Duration, sent: inout Int) throws(TransportError) -> [UInt8] {
        // FeliCa frames carry their LEN byte on the air (JIS X 6319-4 §6.2); the reader adds the CRC.
        let felica = target.technology == .felica
        let onAir = felica ? [UInt8(truncatingIfNeeded: frame.count + 1)] + frame : frame
        guard let apdu = PseudoAPDU.transceive(onAir, timeout: timeout) else {
            throw TransportError(.frameTooLong, "a frame of \(frame.count) B does not fit a transparent exchange")
        }
        sent = apdu.count
        let (data, sw) = try PseudoAPDU.split(transmit(apdu), doing: "transparent exchange")
        guard sw == 0x9000 else {
            throw TransportError(.transmission, "the reader refused the transparent exchange (SW \(String(sw, radix: 16)))")
        }
        switch try TransparentExchangeAnswer(data) {
        case .frame(let reply):
            guard felica else { return reply }
            guard let length = reply.first, Int(length) == reply.count else {
                throw TransportError(.protocolViolation, "FeliCa answer's LEN does not match its \(reply.count) bytes")
            }
            return Array(reply.dropFirst())
        case .noResponse:
            throw TransportError(.timeout, "the tag did not answer within \(timeout)")
        case .readerError(let status, let sw):
            throw TransportError(
                .transmission, "the reader reports error \(Hex.encode([status])) (\(String(sw, radix: 16))) for the exchange")
        }
    }

    /// One `SCardTransmit`; after another program reset the card, reconnects once and retries.
    private func transmit(_ apdu: [UInt8]) throws(TransportError) -> [UInt8] {
        let logger = PCSCLog.logger
        logger.trace("→ \(Hex.encode(apdu))", metadata: ["reader": "\(card.reader)"])
        var (status, answer) = card.transmit(apdu)
        logger.trace(
            "← \(status == .success ? Hex.encode(answer) : status.name)", metadata: ["reader": "\(card.reader)"])
        if status == .resetCard, card.reconnect(reset: false) == .success {
            if mode == .transparentSession { _ = card.transmit(PseudoAPDU.startTransparentSession) }
            (status, answer) = card.transmit(apdu)
        }
        guard status == .success, answer.count >= 2 else {
            // Readers report a tag leaving mid-command as a failed transmission
            // (SCARD_E_NOT_TRANSACTED from pcsc-lite) or an answer without a status word (vpcd);
            // the card's state tells whether it left.
            let (now, _) = card.answerToReset()
            // SCARD_E_NOT_TRANSACTED is pcsc-lite's word for the reader's IFD communication
            // error, which a contactless reader gives when the tag left mid-command (pcscd may
            // not have polled the slot yet, so the card can still look present).
            if status == .notTransacted || [.removedCard, .noSmartcard, .resetCard, .unresponsiveCard, .invalidHandle].contains(now) {
                throw TransportError(
                    .tagLost,
                    "the tag left \(card.reader) during the command (\(status == .success ? "empty answer" : status.name), then \(now.name))"
                )
            }
            guard status == .success else { throw status.transportError("transmit to the tag on \(card.reader)") }
            // Every answer carries a status word (ISO/IEC 7816-4 §5.1): nothing at all is a tag
            // that stopped answering, which for a contactless tag means it left the field.
            if answer.isEmpty { throw TransportError(.tagLost, "the tag on \(card.reader) stopped answering (empty answer)") }
            return answer  // the caller reports the missing status word
        }
        return answer
    }

    func reactivate() async throws(TransportError) {
        try await calls.run { () throws(TransportError) in try self.reactivateBlocking() }
    }

    private func reactivateBlocking() throws(TransportError) {
        let status = card.reconnect(reset: true)
        guard status == .success else { throw status.transportError("reactivate the tag on \(card.reader)") }
        if mode == .transparentSession {
            let (_, sw) = try PseudoAPDU.split(transmit(PseudoAPDU.startTransparentSession), doing: "restart the transparent session")
            guard sw == 0x9000 else { throw TransportError(.transmission, "the reader refused to restart the transparent session") }
        }
    }

    func disconnect() async {
        await calls.run { self.disconnectBlocking() }
    }

    private func disconnectBlocking() {
        if mode == .transparentSession, card.isOpen { _ = card.transmit(PseudoAPDU.endTransparentSession) }
        card.disconnect()
    }
}
