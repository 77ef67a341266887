import NFCTransport

/// Learns what an operation needs to know about a Type 2 tag, reading as little as it can: a
/// sub-machine the NDEF operations embed.
///
/// 1. GET_VERSION (model, whether FAST_READ exists), unless the reader only carries READ/WRITE.
/// 2. Pages 2–5 in one read (FAST_READ 02h–05h, or READ 02h where FAST_READ is unknown): the
///    static lock bytes, the CC and the first 8 data bytes.
/// 3. More of the data area only while the TLV walk needs it, in reads that double in size.
/// 4. In one planned batch: what the goal needs (the message, or the pages a write touches) and the
///    dynamic lock bytes when the CC and static lock bits still allow writing.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.1 (NDEF detection procedure).
struct Type2Inspection: Sendable {
    /// What the operation will do with the result.
    enum Goal: Sendable, Hashable {
        /// The NDEF status only.
        case status
        /// The status and the message.
        case read
        /// The status and every page a message of this length would touch.
        case write(messageLength: Int)
        /// The status and the lock bytes to set.
        case lock
    }

    enum State: Sendable {
        case idle
        case probing(Type2VersionProbe)
        case header(Type2PageReader)
        case scanning(Type2PageReader)
        case finishing(Type2PageReader)
        case finished
    }

    /// The first read while walking TLVs past the header, in pages; each further read doubles.
    static let firstScanPages = 4

    let limits: ExchangeLimits
    let maximumReadLength: Int?
    let goal: Goal
    private var state = State.idle
    private var snapshot: Type2Snapshot
    private var scanPages = Type2Inspection.firstScanPages

    init(limits: ExchangeLimits, maximumReadLength: Int?, goal: Goal) {
        self.limits = limits
        self.maximumReadLength = maximumReadLength
        self.goal = goal
        snapshot = Type2Snapshot(readLimits: Type2ReadLimits(limits: limits, cap: maximumReadLength, version: nil))
    }

    mutating func start() throws(TagEngineError) -> TagStep<Type2Snapshot> {
        var probe = Type2VersionProbe(limits: limits)
        let step = probe.start()
        return try probed(probe, step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type2Snapshot> {
        switch state {
        case .probing(var probe):
            let step = try probe.resume(with: outcome)
            return try probed(probe, step)
        case .header(var reader):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Type2Snapshot> = Type2Step.forward(step) {
                state = .header(reader)
                return next
            }
            snapshot.memory = reader.memory
            return try readCapabilityContainer()
        case .scanning(var reader):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Type2Snapshot> = Type2Step.forward(step) {
                state = .scanning(reader)
                return next
            }
            snapshot.memory = reader.memory
            return try walkTLVs()
        case .finishing(var reader):
            let step = try reader.resume(with: outcome)
            if let next: TagStep<Type2Snapshot> = Type2Step.forward(step) {
                state = .finishing(reader)
                return next
            }
            snapshot.memory = reader.memory
            state = .finished
            return .done(snapshot)
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 2 inspection resumed in state \(state)")
        }
    }

    // MARK: Phases

    private mutating func probed(_ probe: Type2VersionProbe, _ step: TagStep<Type2VersionAnswer>) throws(TagEngineError) -> TagStep<
        Type2Snapshot
    > {
        if let next: TagStep<Type2Snapshot> = Type2Step.forward(step) {
            state = .probing(probe)
            return next
        }
        guard case .done(let answer) = step else { throw TagEngineError(.unexpectedResponse, "version probe ended without an answer") }
        snapshot.versionAnswer = answer
        snapshot.readLimits = Type2ReadLimits(limits: limits, cap: maximumReadLength, version: answer.version)
        var reader = Type2PageReader(plan: try snapshot.readLimits.plan([2, 3, 4, 5]), into: snapshot.memory)
        let first = reader.start()
        state = .header(reader)
        return Type2Step.forward(first) ?? .done(snapshot)
    }

    private mutating func readCapabilityContainer() throws(TagEngineError) -> TagStep<Type2Snapshot> {
        guard let page3 = snapshot.memory.page(3) else {
            throw TagEngineError(.unexpectedResponse, "page 3 missing after reading pages 2–5")
        }
        let reading = Type2CapabilityContainer.parse(page3, userMemorySize: snapshot.model?.userMemorySize)
        snapshot.capabilityContainer = reading
        guard case .valid(let cc) = reading, cc.grantsRead else {
            state = .finished
            return .done(snapshot)
        }
        return try walkTLVs()
    }

    private mutating func walkTLVs() throws(TagEngineError) -> TagStep<Type2Snapshot> {
        guard let cc = snapshot.validCC else { throw TagEngineError(.unexpectedResponse, "TLV walk without a CC") }
        switch try TLVAreaScanner.scan(snapshot.memory, dataAreaEnd: cc.dataAreaEnd) {
        case .needsByte(let address):
            let first = address / 4
            let last = min(first + scanPages, (cc.dataAreaEnd + 3) / 4) - 1
            scanPages = min(scanPages * 2, 256)
            let pages = (first...max(first, last)).filter { !snapshot.memory.has(page: $0) }
            var reader = Type2PageReader(plan: try snapshot.readLimits.plan(pages), into: snapshot.memory)
            let step = reader.start()
            guard let next: TagStep<Type2Snapshot> = Type2Step.forward(step) else {
                throw TagEngineError(.unexpectedResponse, "TLV walk needs byte \(address), which was read")
            }
            state = .scanning(reader)
            return next
        case .complete(let layout):
            snapshot.layout = layout
            return try readWhatTheGoalNeeds(cc: cc, layout: layout)
        }
    }

    private mutating func readWhatTheGoalNeeds(cc: Type2CapabilityContainer, layout: TLVAreaLayout) throws(TagEngineError) -> TagStep<
        Type2Snapshot
    > {
        let allowDefault = goal == .lock && snapshot.versionAnswer == .refused
        snapshot.dynamicLocks = Type2LockBits.dynamic(
            layout: layout, model: snapshot.model, dataAreaSize: cc.dataAreaSize, allowDefault: allowDefault)
        let staticLocked = Type2LockBits.staticLocksData(in: snapshot.memory, dataAreaEnd: cc.dataAreaEnd) ?? false
        let writable = cc.grantsWrite && !staticLocked
        var pages: [Int] = []
        if goal == .lock || writable {
            pages += (snapshot.dynamicLocks ?? []).flatMap(\.pages)
        }
        switch goal {
        case .read:
            if let ndef = layout.ndef { pages += layout.messageAddresses(ndef).map { $0 / 4 } }
        case .write(let length):
            if writable, length <= layout.capacity {
                let count = TLVAreaLayout.header(length: length).count + length + 1
                pages += layout.addresses(from: layout.ndefStart, count: count).map { $0 / 4 }
                if let ndef = layout.ndef { pages += ([ndef.typeAddress] + ndef.lengthAddresses).map { $0 / 4 } }
            }
        case .status, .lock:
            break
        }
        let missing = pages.filter { !snapshot.memory.has(page: $0) }
        var reader = Type2PageReader(plan: try snapshot.readLimits.plan(missing), into: snapshot.memory)
        let step = reader.start()
        guard let next: TagStep<Type2Snapshot> = Type2Step.forward(step) else {
            state = .finished
            return .done(snapshot)
        }
        state = .finishing(reader)
        return next
    }
}
