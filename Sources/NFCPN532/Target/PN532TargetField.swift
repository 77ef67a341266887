import NFCBytes
import NFCTransport

/// The RF side of a virtual PN532 in target mode, seen from the reader that activates it: the
/// host program (libnfc's `nfc-emulate-forum-tag4`, say) makes the chip a card with
/// TgInitAsTarget, and this field lists that card, connects to it and exchanges with it as any
/// `ReaderDriver` does. Our engines are then the initiator and the host's program the card.
///
/// The chip's side (UM0701-02 §7.3.14 to §7.3.21) calls ``offer(_:)``, ``hostGetData()`` and
/// ``hostSetData(_:more:)``; they wait for the initiator as the real commands wait for the RF.
/// What the initiator sends to the card is what TgGetData (or TgGetInitiatorCommand) hands the
/// host; what the host gives TgSetData (or TgResponseToInitiator) is the card's answer.
///
/// Only 106 kbit/s type A is offered (MIFARE framing, with or without the chip's ISO/IEC
/// 14443-4 PICC emulation): the FeliCa and NFC-DEP parameters of TgInitAsTarget are accepted and
/// not used, and a DEP-only target (Mode bit 1) is never offered: no DEP initiator comes.
public actor PN532TargetField: ReaderDriver {
    /// `pn532-target:PATH`, as users name the reader.
    public nonisolated let name: String

    /// A TgInitAsTarget waiting for an initiator.
    private struct Offer {
        let target: TargetInfo
        /// TgInitAsTarget's answer: the mode byte, then the initiator's activating command.
        let activation: [UInt8]
        let continuation: CheckedContinuation<[UInt8]?, Never>
    }

    /// An activated card and the exchange under way.
    private struct Session {
        let target: TargetInfo
        /// Initiator data the host has not asked for yet.
        var toHost: [[UInt8]] = []
        /// The host's TgGetData (or TgGetInitiatorCommand) waiting for initiator data.
        var hostWaiting: CheckedContinuation<[UInt8]?, Never>?
        /// The answer the host is giving in parts (TgSetMetaData).
        var fromHost: [UInt8] = []
        /// The initiator waiting for the card's answer, with the exchange's number.
        var initiatorWaiting: (number: Int, continuation: CheckedContinuation<Result<[UInt8], TransportError>, Never>)?
        /// The initiator let the card go; the host learns it at its next TgGetData.
        var released = false
    }

    private var offer: Offer?
    private var session: Session?
    private var generation: UInt64 = 0
    private var exchanges = 0
    private var watchers: [Int: (mask: TechnologyMask, continuation: AsyncStream<ReaderEvent>.Continuation)] = [:]
    private var nextWatcher = 0

    /// The chip's ATS in PICC mode before the host's historical bytes. Decision: the manual does
    /// not list the ATS the firmware builds; these are FSCI 5 (64-byte frames), TA `77` (212, 424
    /// and 848 kbit/s each way; the exchange itself runs at 106), TB `81` (FWI 8, about 77 ms;
    /// SFGI 1), TC `02` (CID supported).
    static let piccATS = AnswerToSelect(fsci: 5, ta: 0x77, tb: 0x81, tc: 0x02)
    /// The RATS reported as the activating command in PICC mode (FSDI 8: 256-byte frames, CID 0).
    static let rats: [UInt8] = [0xE0, 0x80]
    /// Initiator data and card answers are carried whole, up to what one TgGetData or TgSetData
    /// frame holds (262 bytes after the status byte, §7.3.16).
    public static let limits = ExchangeLimits(
        maxCommandLength: 262, maxResponseLength: 262, extendedLengthAPDUs: false, nativeCommands: .all)

    /// The least time the card's program gets to answer an exchange.
    let minimumWait: Duration

    /// A field named `name` (`pn532-target:PATH`) whose card's program gets at least
    /// `minimumWait` to answer each exchange.
    public init(name: String, minimumWait: Duration = .seconds(5)) {
        self.name = name
        self.minimumWait = minimumWait
    }

    // MARK: the chip's side

    /// The card TgInitAsTarget describes (§7.3.14): Mode, MifareParams (SENS_RES, NFCID1t,
    /// SEL_RES), FeliCaParams, NFCID3t, Gt, and on the PN532 Tk, the historical bytes of its
    /// ATS in PICC mode. `picc` says whether the chip answers RATS itself (Mode bit 2
    /// PICCOnly, or SetParameters' fISO14443-4_PICC).
    public struct TargetParameters: Sendable, Hashable {
        /// SENS_RES (ATQA) in the order the chip sends it (libnfc writes an ATQA of `0004` as `04 00`).
        public var sensRes: [UInt8]
        /// NFCID1t, 3 bytes; the chip puts `08` before them (a random UID, ISO/IEC 14443-3 §6.4.4).
        public var nfcid1: [UInt8]
        /// SEL_RES (SAK).
        public var selRes: UInt8
        /// The historical bytes of the ATS (Tk).
        public var historicalBytes: [UInt8]
        /// Whether the chip emulates the ISO/IEC 14443-4 PICC (answers RATS, runs the blocks).
        public var picc: Bool

        /// Parses TgInitAsTarget's parameters (at least 37 bytes: Mode 1, MifareParams 6,
        /// FeliCaParams 18, NFCID3t 10, Gt's length and bytes, Tk's length and bytes); nil for
        /// parameters the chip refuses. `piccFlag` is SetParameters' fISO14443-4_PICC.
        public init?(_ bytes: [UInt8], piccFlag: Bool) {
            guard bytes.count >= 37 else { return nil }
            let generalLength = Int(bytes[35])
            guard bytes.count >= 37 + generalLength, generalLength <= 47 else { return nil }
            let tkIndex = 36 + generalLength
            let tkLength = Int(bytes[tkIndex])
            guard bytes.count == tkIndex + 1 + tkLength, tkLength <= 48 else { return nil }
            sensRes = Array(bytes[1...2])
            nfcid1 = Array(bytes[3...5])
            selRes = bytes[6]
            historicalBytes = Array(bytes[(tkIndex + 1)...])
            picc = bytes[0] & 0x04 != 0 || piccFlag
        }

        /// The card as an initiator lists it.
        func target(handle: UInt64) -> TargetInfo {
            let ats: AnswerToSelect? =
                picc
                ? AnswerToSelect(fsci: piccATS.fsci, ta: piccATS.ta, tb: piccATS.tb, tc: piccATS.tc, historicalBytes: historicalBytes) : nil
            let atqa = UInt16(sensRes[0]) | UInt16(sensRes[1]) << 8
            return TargetInfo(
                handle: handle, identifier: [0x08] + nfcid1,
                parameters: .iso14443A(.init(atqa: atqa, sak: selRes, ats: ats)))
        }
    }

    /// TgInitAsTarget: offers the card until an initiator activates it, then returns the answer
    /// (the mode byte — 106 kbit/s, MIFARE framing, bit 3 for PICC — and the activating
    /// command: RATS in PICC mode, else SELECT). Nil when the host aborted the command.
    /// A card already active is gone: the initiator's exchange fails as a lost tag.
    public func offer(_ parameters: TargetParameters) async -> [UInt8]? {
        endSession(lost: true)
        withdrawOffer()
        generation += 1
        let target = parameters.target(handle: generation)
        let activation: [UInt8] =
            parameters.picc ? [0x08] + Self.rats : [0x00, 0x93, 0x70] + target.identifier + [xorCheck(target.identifier)]
        let handle = generation
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                offer = Offer(target: target, activation: activation, continuation: continuation)
                announce(.targetArrived(target))
            }
        } onCancel: {
            Task { await self.withdraw(handle) }
        }
    }

    /// TgGetData or TgGetInitiatorCommand: the status byte and the initiator's next data,
    /// waiting for it. `29` once the initiator released the card (§7.1, Table 19), `25` when no
    /// initiator activated the chip. Nil when the host aborted the command.
    public func hostGetData() async -> [UInt8]? {
        guard var current = session else { return [PN532Status.invalidDeviceState.rawValue] }
        if current.released {
            session = nil
            return [PN532Status.released.rawValue]
        }
        if !current.toHost.isEmpty {
            let data = current.toHost.removeFirst()
            session = current
            return [PN532Status.success.rawValue] + data
        }
        let handle = current.target.handle
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                session?.hostWaiting = continuation
            }
        } onCancel: {
            Task { await self.stopHostWait(handle) }
        }
    }

    /// TgSetData (`more` false), TgSetMetaData (`more` true: further parts follow) or
    /// TgResponseToInitiator: the card's answer, or part of it. Returns the status byte.
    public func hostSetData(_ data: [UInt8], more: Bool) -> [UInt8] {
        guard var current = session else { return [PN532Status.invalidDeviceState.rawValue] }
        guard !current.released else { return [PN532Status.released.rawValue] }
        current.fromHost += data
        if !more, let waiting = current.initiatorWaiting {
            waiting.continuation.resume(returning: .success(current.fromHost))
            current.fromHost = []
            current.initiatorWaiting = nil
        }
        session = current
        return [PN532Status.success.rawValue]
    }

    /// Whether an exchange is waiting for the card's answer (tests wait on it).
    var initiatorIsWaiting: Bool { session?.initiatorWaiting != nil }

    /// TgGetTargetStatus (§7.3.21): the state (`00` free, `01` activated, `02` released) and the
    /// bit rates (106 kbit/s both ways).
    public func hostTargetStatus() -> [UInt8] {
        guard let session else { return [0x00, 0x00] }
        return [session.released ? 0x02 : 0x01, 0x00]
    }

    private func withdraw(_ handle: UInt64) {
        guard offer?.target.handle == handle else { return }
        withdrawOffer()
    }

    private func withdrawOffer() {
        guard let pending = offer else { return }
        offer = nil
        pending.continuation.resume(returning: nil)
        announce(.targetLeft(pending.target))
    }

    private func stopHostWait(_ handle: UInt64) {
        guard session?.target.handle == handle, let waiting = session?.hostWaiting else { return }
        session?.hostWaiting = nil
        waiting.resume(returning: nil)
    }

    /// Ends the active card: its initiator's waiting exchange fails (`lost`: the card is gone;
    /// else the connection was closed), and the host's waiting TgGetData learns of the release.
    private func endSession(lost: Bool) {
        guard var current = session else { return }
        if let waiting = current.initiatorWaiting {
            let error =
                lost
                ? TransportError(.tagLost, "\(name): the card's program made the chip a target again")
                : TransportError(.notConnected, "\(name): the connection to the card is closed")
            waiting.continuation.resume(returning: .failure(error))
            current.initiatorWaiting = nil
        }
        if !current.released { announce(.targetLeft(current.target)) }
        current.released = true
        if let host = current.hostWaiting {
            host.resume(returning: [PN532Status.released.rawValue])
            session = nil
        } else {
            session = lost ? nil : current
        }
    }

    // MARK: the initiator's side

    /// The card the host offers, when it matches `mask`.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        guard let offer, mask.contains(.iso14443A) else { return [] }
        return [offer.target]
    }

    /// Arrivals (the host's TgInitAsTarget) and departures (a new TgInitAsTarget, an aborted
    /// one, a released card).
    public func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderEvent.self)
        let id = nextWatcher
        nextWatcher += 1
        watchers[id] = (mask, continuation)
        if let offer, mask.contains(.iso14443A) { continuation.yield(.targetArrived(offer.target)) }
        continuation.onTermination = { _ in Task { await self.forgetWatcher(id) } }
        return stream
    }

    private func forgetWatcher(_ id: Int) {
        watchers[id] = nil
    }

    private func announce(_ event: ReaderEvent) {
        for watcher in watchers.values where watcher.mask.contains(.iso14443A) {
            watcher.continuation.yield(event)
        }
    }

    /// Activates the offered card: the host's TgInitAsTarget returns.
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        guard let pending = offer, pending.target.handle == target.handle else {
            throw TransportError(.noSuchTarget, "\(name): \(target) is not offered (its program stopped or started again)")
        }
        offer = nil
        session = Session(target: pending.target)
        pending.continuation.resume(returning: pending.activation)
        return PN532TargetConnection(field: self, target: pending.target, meter: meter)
    }

    /// One exchange: `command` goes to the host's next TgGetData, the host's TgSetData is the
    /// answer. The host is a program on the far side of a serial line, so it gets at least
    /// ``minimumWait`` (5 s unless set) whatever `timeout` says (a real chip in PICC mode keeps the reader waiting with
    /// waiting-time extensions meanwhile).
    func exchange(_ command: [UInt8], handle: UInt64, timeout: Duration) async throws(TransportError) -> [UInt8] {
        guard var current = session, current.target.handle == handle, !current.released else {
            throw TransportError(.notConnected, "\(name): the card is no longer connected")
        }
        guard current.initiatorWaiting == nil else {
            throw TransportError(.protocolViolation, "\(name): an exchange is already waiting for the card's answer")
        }
        if let host = current.hostWaiting {
            current.hostWaiting = nil
            host.resume(returning: [PN532Status.success.rawValue] + command)
        } else {
            current.toHost.append(command)
        }
        current.fromHost = []
        session = current
        exchanges += 1
        let number = exchanges
        let wait = max(timeout, minimumWait)
        let timer = Task {
            try? await Task.sleep(for: wait)
            self.expire(number, after: wait)
        }
        defer { timer.cancel() }
        let result = await withCheckedContinuation { continuation in
            session?.initiatorWaiting = (number, continuation)
        }
        return try result.get()
    }

    /// The program did not answer in time: the exchange fails, and the card is released — an
    /// answer still to come would otherwise pass for the next command's.
    private func expire(_ number: Int, after wait: Duration) {
        guard let waiting = session?.initiatorWaiting, waiting.number == number else { return }
        session?.initiatorWaiting = nil
        session?.toHost = []
        waiting.continuation.resume(returning: .failure(TransportError(.timeout, "\(name): the card's program did not answer in \(wait)")))
        endSession(lost: false)
    }

    /// The initiator lets the card go: the host's next TgGetData reports the release.
    func release(handle: UInt64) {
        guard session?.target.handle == handle else { return }
        endSession(lost: false)
    }

    private func xorCheck(_ bytes: [UInt8]) -> UInt8 { bytes.reduce(0, ^) }
}
