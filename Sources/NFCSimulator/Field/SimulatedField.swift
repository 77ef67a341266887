import NFCTransport

/// Identifies a tag placed in a ``SimulatedField``.
public struct VirtualTagID: Sendable, Hashable, CustomStringConvertible {
    /// The number the field gave the tag (1, 2, … in the order tags were placed); also the target's `handle`.
    public let rawValue: UInt64
    /// Wraps a number; a tag has it only if the field gave it out.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// `tag#` followed by the number, e.g. `tag#1`.
    public var description: String { "tag#\(rawValue)" }
}

/// A simulated RF field: a reader driver whose targets are virtual tags, under test control.
///
/// Tags enter (``place(_:)``) and leave (``remove(_:)``) the field; polling reports every tag in
/// the field among the requested technologies; each exchange is charged the air time of
/// ``AirTimeModel`` on the injected `SimulatedClock` and counted in the connection's meter and
/// the field's totals. Faults (``FieldFault``) remove tags, tear writes, damage or delay answers.
public actor SimulatedField: ReaderDriver {
    /// The driver's name (`sim` by default).
    public nonisolated let name: String
    /// The clock the field advances by each exchange's air time.
    public nonisolated let clock: SimulatedClock
    /// The simulated reader's capabilities.
    public nonisolated let configuration: SimulatedReaderConfiguration

    struct Slot {
        var tag: any VirtualTag
        /// Commands received since the tag entered the field.
        var commandCount = 0
        var faults: [(fault: FieldFault, base: Int)] = []
        /// The bit rate agreed at the last activation.
        var bitRate: BitRate = .kbps106
    }

    private var slots: [VirtualTagID: Slot] = [:]
    /// Tags that left the field, as they were when they left (a torn write stays visible).
    private var departed: [VirtualTagID: any VirtualTag] = [:]
    private var order: [VirtualTagID] = []
    private var nextID: UInt64 = 1
    private var watchers: [UInt64: (mask: TechnologyMask, continuation: AsyncStream<ReaderEvent>.Continuation)] = [:]
    private var nextWatcher: UInt64 = 0
    private var totals = ExchangeStatistics()

    /// A field named `name`, with tags already in it (as if each had been ``place(_:)``d, in
    /// order, before anyone polled), so that a driver handed out synchronously has its tags.
    public init(
        name: String = "sim", clock: SimulatedClock = SimulatedClock(), configuration: SimulatedReaderConfiguration = .ideal,
        holding tags: [any VirtualTag] = []
    ) {
        self.name = name
        self.clock = clock
        self.configuration = configuration
        for var tag in tags {
            tag.powerOn()
            let id = VirtualTagID(rawValue: nextID)
            nextID += 1
            slots[id] = Slot(tag: tag)
            order.append(id)
        }
    }

    // MARK: Test control

    /// Brings a tag into the field (a tap); it powers on and is reported to pollers.
    @discardableResult
    public func place(_ tag: some VirtualTag) -> VirtualTagID {
        var tag = tag
        tag.powerOn()
        let id = VirtualTagID(rawValue: nextID)
        nextID += 1
        departed[id] = nil
        slots[id] = Slot(tag: tag)
        order.append(id)
        notify(.targetArrived(targetInfo(id: id, tag: tag)), technology: tag.technology)
        return id
    }

    /// Takes a tag out of the field and returns its state; `nil` if it was not there.
    @discardableResult
    public func remove(_ id: VirtualTagID) -> (any VirtualTag)? {
        guard let slot = slots.removeValue(forKey: id) else { return nil }
        order.removeAll { $0 == id }
        departed[id] = slot.tag
        notify(.targetLeft(targetInfo(id: id, tag: slot.tag)), technology: slot.tag.technology)
        return slot.tag
    }

    /// Takes every tag out of the field.
    public func removeAll() {
        for id in order { remove(id) }
    }

    /// Brings a tag that left the field back in under the same identity (tapped again); its
    /// faults are cleared.
    @discardableResult
    public func reinsert(_ id: VirtualTagID) -> Bool {
        guard slots[id] == nil, var tag = departed.removeValue(forKey: id) else { return false }
        tag.powerOn()
        slots[id] = Slot(tag: tag)
        order.append(id)
        notify(.targetArrived(targetInfo(id: id, tag: tag)), technology: tag.technology)
        return true
    }

    /// The state of a tag: in the field now, or as it was when it left.
    public func tag(_ id: VirtualTagID) -> (any VirtualTag)? { slots[id]?.tag ?? departed[id] }

    /// The state of a tag as its concrete type (see ``tag(_:)``).
    public func tag<T: VirtualTag>(_ id: VirtualTagID, as type: T.Type) -> T? { tag(id) as? T }

    /// Whether a tag is in the field now.
    public func isPresent(_ id: VirtualTagID) -> Bool { slots[id] != nil }

    /// Replaces the state of a tag in the field (e.g. to preset memory in a test).
    public func update(_ id: VirtualTagID, _ body: (inout any VirtualTag) -> Void) {
        guard var slot = slots[id] else { return }
        body(&slot.tag)
        slots[id] = slot
    }

    /// The tags in the field, in the order they entered.
    public var tagIDs: [VirtualTagID] { order }

    /// Arms a fault on a tag in the field.
    public func inject(_ fault: FieldFault, into id: VirtualTagID) {
        guard var slot = slots[id] else { return }
        slot.faults.append((fault, slot.commandCount))
        slots[id] = slot
    }

    /// Commands, bytes and air time of every exchange since the field was made (or last reset).
    public var statistics: ExchangeStatistics { totals }

    /// Returns the totals and starts counting again.
    @discardableResult
    public func resetStatistics() -> ExchangeStatistics {
        defer { totals = ExchangeStatistics() }
        return totals
    }

    // MARK: ReaderDriver

    /// The tags in the field whose technology is in `mask`, in the order they entered; never throws.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        order.compactMap { id in
            guard let slot = slots[id], mask.contains(slot.tag.technology) else { return nil }
            return targetInfo(id: id, tag: slot.tag)
        }
    }

    /// Reports the matching tags already in the field as arrivals, then every arrival and departure; the stream never
    /// finishes on its own.
    public func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream<ReaderEvent>.makeStream(bufferingPolicy: .unbounded)
        let key = nextWatcher
        nextWatcher += 1
        for id in order {
            if let slot = slots[id], mask.contains(slot.tag.technology) {
                continuation.yield(.targetArrived(targetInfo(id: id, tag: slot.tag)))
            }
        }
        watchers[key] = (mask, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.dropWatcher(key) }
        }
        return stream
    }

    /// Activates the tag `target` names, charging the activation's air time, and opens a connection at the bit rate
    /// agreed with it (the highest both the tag and ``configuration`` allow).
    ///
    /// - Throws: `TransportError` `.tagLost` when the tag is not in the field.
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        let id = VirtualTagID(rawValue: target.handle)
        try activate(id, meter: meter)
        guard let slot = slots[id] else { throw TransportError(.tagLost, "\(id) left the field") }
        return SimulatedConnection(
            field: self, id: id, target: targetInfo(id: id, tag: slot.tag),
            limits: configuration.limits, bitRate: slot.bitRate, meter: meter
        )
    }

    // MARK: Exchanges (used by SimulatedConnection)

    func activate(_ id: VirtualTagID, meter: AirTimeMeter) throws(TransportError) {
        guard var slot = slots[id] else { throw TransportError(.tagLost, "\(id) is not in the field") }
        let bitRate = negotiatedBitRate(for: slot.tag)
        let context = ExchangeContext(bitRate: bitRate, readerFrameSize: configuration.frameSize, now: clock.now.offset)
        let frames = slot.tag.activate(context: context)
        slot.bitRate = bitRate
        slots[id] = slot
        // Activation runs at the base rate for ISO/IEC 14443 (PPS switches afterwards); FeliCa
        // polls at its own rate.
        let activationRate: BitRate = slot.tag.technology == .felica ? bitRate : .kbps106
        let time = AirTimeModel.duration(of: frames, technology: slot.tag.technology, bitRate: activationRate)
        clock.advance(by: time)
        meter.record(airTime: time)
        totals.airTime += time
    }

    func exchange(_ id: VirtualTagID, command: [UInt8], timeout: Duration, meter: AirTimeMeter) throws(TransportError) -> [UInt8] {
        guard var slot = slots[id] else { throw TransportError(.tagLost, "\(id) is not in the field") }
        let limits = configuration.limits
        guard command.count <= limits.maxCommandLength else {
            throw TransportError(.frameTooLong, "command of \(command.count) B exceeds the reader's \(limits.maxCommandLength) B")
        }
        if case .readAndWriteOnly = limits.nativeCommands, !slot.tag.speaksISODEP,
            !Self.isPlainReadOrWrite(command, technology: slot.tag.technology)
        {
            throw TransportError(
                .unsupportedCommand,
                "this reader only carries READ and WRITE (PC/SC pseudo-APDUs), not \(command.first.map { String($0, radix: 16) } ?? "an empty frame")"
            )
        }
        slot.commandCount += 1
        let number = slot.commandCount
        let start = clock.now
        let before = slot.tag

        // A tag already due to leave never sees the command.
        for (fault, base) in slot.faults {
            if case .removeAfterCommands(let count) = fault, number > base + count {
                remove(id)
                throw TransportError(.tagLost, "\(id) left the field after \(count) commands")
            }
            if case .removeAt(let instant, _) = fault, instant <= start {
                remove(id)
                throw TransportError(.tagLost, "\(id) left the field at \(instant)")
            }
        }

        let context = ExchangeContext(bitRate: slot.bitRate, readerFrameSize: configuration.frameSize, now: start.offset)
        var answer = slot.tag.respond(to: command, context: context)
        var delay: Duration = .zero
        var corruption: FieldFault.Corruption?
        var tear: FieldFault.TearOutcome?
        var removal: (instant: SimulatedClock.Instant, outcome: FieldFault.TearOutcome)?
        for (fault, base) in slot.faults {
            switch fault {
            case .tear(let n, let outcome) where base + n == number: tear = outcome
            case .corruptResponse(let n, let kind) where base + n == number: corruption = kind
            case .delayResponse(let n, let by) where base + n == number: delay += by
            case .removeAt(let instant, let outcome): removal = (instant, outcome)
            default: break
            }
        }
        answer.processingTime += delay
        if delay > .zero, var explicit = answer.frames, !explicit.isEmpty {
            explicit[explicit.count - 1].processing += delay
            answer.frames = explicit
        }

        let frames = answer.frames ?? [defaultFrame(command: command, answer: answer, tag: slot.tag)]
        let airTime = AirTimeModel.duration(of: frames, technology: slot.tag.technology, bitRate: slot.bitRate)
        let end = start.advanced(by: airTime)

        // Cut during the exchange: a tear fault on this command (halfway through the tag's
        // processing), or a removal due before the answer ends.
        var cut: (outcome: FieldFault.TearOutcome, at: SimulatedClock.Instant)?
        if let tear {
            cut = (tear, end.advanced(by: .zero - answer.processingTime / 2))
        } else if let removal, removal.instant < end {
            cut = (removal.outcome, removal.instant)
        }
        if let cut {
            if cut.outcome == .oldData || !answer.writesMemory { slot.tag = before }
            slots[id] = slot
            charge(start.duration(to: cut.at), meter: meter, sent: command.count, received: 0)
            remove(id)
            throw TransportError(.tagLost, "\(id) left the field during command \(number)")
        }
        slots[id] = slot

        guard let reply = answer.transceivedBytes else {
            charge(readerFrameTime(command, slot) + timeout, meter: meter, sent: command.count, received: 0)
            throw TransportError(.timeout, "\(id) did not answer command \(number)")
        }
        if answer.processingTime > timeout {
            charge(readerFrameTime(command, slot) + timeout, meter: meter, sent: command.count, received: 0)
            throw TransportError(.timeout, "\(id) answered command \(number) after \(answer.processingTime), beyond the \(timeout) timeout")
        }
        guard reply.count <= limits.maxResponseLength else {
            charge(airTime, meter: meter, sent: command.count, received: 0)
            throw TransportError(.frameTooLong, "answer of \(reply.count) B exceeds the reader's \(limits.maxResponseLength) B buffer")
        }
        charge(airTime, meter: meter, sent: command.count, received: reply.count)
        switch corruption {
        case .crcError?:
            throw TransportError(.transmission, "CRC error in the answer to command \(number)")
        case .flipBits(let byte, let mask)?:
            var damaged = reply
            if damaged.indices.contains(byte) { damaged[byte] ^= mask }
            return damaged
        case nil:
            return reply
        }
    }

    // MARK: Helpers

    /// Whether a storage-tag command is one a PC/SC pseudo-APDU reader can carry (`FF B0` read
    /// binary, `FF D6` update binary, which the reader maps onto native commands): Type 2 READ and
    /// WRITE, ISO/IEC 15693 Read/Write Single Block and Read Multiple Blocks (and their extended
    /// forms), FeliCa Read/Write Without Encryption.
    static func isPlainReadOrWrite(_ command: [UInt8], technology: Technology) -> Bool {
        switch technology {
        case .iso14443A, .iso14443B: command.first == 0x30 || command.first == 0xA2
        case .iso15693: command.count >= 2 && [0x20, 0x21, 0x23, 0x30, 0x31, 0x33].contains(command[1])
        case .felica: command.first == 0x06 || command.first == 0x08
        }
    }

    private func charge(_ time: Duration, meter: AirTimeMeter, sent: Int, received: Int) {
        clock.advance(by: time)
        meter.record(sent: sent, received: received, airTime: time)
        totals = totals + ExchangeStatistics(commands: 1, bytesSent: sent, bytesReceived: received, airTime: time)
    }

    private func readerFrameTime(_ command: [UInt8], _ slot: Slot) -> Duration {
        AirTimeModel.duration(
            of: AirFrame(reader: Self.readerPart(command, slot.tag), tag: .none), technology: slot.tag.technology, bitRate: slot.bitRate)
    }

    private func defaultFrame(command: [UInt8], answer: TagAnswer, tag: any VirtualTag) -> AirFrame {
        let reply: AirFrame.Part =
            switch answer.reply {
            case .bytes(let bytes): .bytes(bytes.count)
            case .ack, .nak: .bits(4)
            case .mute: .none
            }
        return AirFrame(reader: Self.readerPart(command, tag), tag: reply, processing: answer.processingTime)
    }

    /// How a command goes on the air: one frame, or a Type 1 Tag's train of one-byte frames.
    static func readerPart(_ command: [UInt8], _ tag: any VirtualTag) -> AirFrame.Part {
        if case .iso14443A(let a) = tag.parameters, a.isType1Platform { return .type1Command(command.count) }
        return .bytes(command.count)
    }

    private func negotiatedBitRate(for tag: any VirtualTag) -> BitRate {
        switch tag.parameters {
        case .iso14443A(let a):
            min(a.ats?.maximumBitRate ?? .kbps106, configuration.maximumBitRate)
        case .felica(let f):
            min(f.maximumBitRate, configuration.maximumBitRate >= .kbps424 ? .kbps424 : .kbps212)
        case .iso14443B, .iso15693:
            .kbps106
        }
    }

    private func targetInfo(id: VirtualTagID, tag: any VirtualTag) -> TargetInfo {
        TargetInfo(handle: id.rawValue, identifier: tag.identifier, parameters: tag.parameters)
    }

    private func notify(_ event: ReaderEvent, technology: Technology) {
        for (_, watcher) in watchers where watcher.mask.contains(technology) {
            watcher.continuation.yield(event)
        }
    }

    private func dropWatcher(_ key: UInt64) {
        watchers[key] = nil
    }
}
