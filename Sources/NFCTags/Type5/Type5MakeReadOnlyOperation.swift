import NFCTransport

/// Makes the tag read-only (T5T 1.0 §7.5, the READ-ONLY state): the CC's write access
/// becomes `11` (never), then — when the CC's LOCK BLOCK feature says the tag has Lock Block —
/// every block of the data area and, last, the CC's own blocks are locked for good.
///
/// The CC is written first because a locked block 0 could no longer be changed; a tag pulled away
/// midway is already read-only by its CC. The NFC Forum read-only state is the CC's write access:
/// a tag without Lock Block (the ST25DV protects memory by areas and passwords instead) ends
/// read-only by its CC alone, as NFC Forum devices honour it, but its blocks stay writable with
/// raw commands. A tag whose CC announces Lock Block but that answers it with "not supported"
/// ends the same way.
struct Type5MakeReadOnlyOperation: Type5Operation {
    enum State: Sendable { case idle, detecting, writing, finished }

    private(set) var session: Type5Session
    private var detector = Type5Detector(ccOnly: true)
    private var queue = Type5WriteQueue([])
    private(set) var state = State.idle
    /// The blocks locked or to lock, once planned.
    private(set) var lockedBlocks: [Int] = []

    init(session: Type5Session) { self.session = session }

    mutating func start() throws(TagEngineError) -> TagStep<Void> {
        detector.start(&session)
        state = .detecting
        return try session.continueReading()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .detecting:
            try session.absorbRead(outcome)
            if let exchange = try session.nextRead() { return exchange.step() }
            guard let detection = try detector.evaluate(&session) else { return try session.continueReading() }
            try plan(detection.cc)
            state = .writing
            return writeNext()
        case .writing:
            try queue.absorb(outcome)
            return writeNext()
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 make read-only: an answer arrived with no command pending")
        }
    }

    private mutating func plan(_ cc: Type5CapabilityContainer) throws(TagEngineError) {
        guard let blockSize = session.blockSize else {
            throw TagEngineError(.unexpectedResponse, "Type 5 make read-only: block size unknown after reading")
        }
        var items: [Type5WriteQueue.Item] = []
        let ccBlocks = (cc.length + blockSize - 1) / blockSize
        if cc.writeAccess != .never {
            var locked = cc
            locked.writeAccess = .never
            var target = Array(session.memory.prefix(ccBlocks * blockSize))
            guard target.count == ccBlocks * blockSize else {
                throw TagEngineError(.unexpectedResponse, "Type 5 make read-only: the CC blocks were not read")
            }
            target.replaceSubrange(0..<cc.length, with: locked.bytes)
            for block in 0..<ccBlocks {
                let bytes = Array(target[(block * blockSize)..<((block + 1) * blockSize)])
                if session.isLocked(block) {
                    throw TagEngineError(
                        .readOnly,
                        "block \(block), which holds the capability container, is locked with write access \(cc.writeAccess.name)")
                }
                if bytes != Array(session.memory[(block * blockSize)..<((block + 1) * blockSize)]) {
                    items.append(.write(block: block, bytes: bytes))
                }
            }
        }
        if cc.lockBlock {
            let areaBlocks = (cc.areaEnd + blockSize - 1) / blockSize
            lockedBlocks = Array(ccBlocks..<max(ccBlocks, areaBlocks)) + (0..<ccBlocks).reversed()
            items += lockedBlocks.filter { !session.isLocked($0) }.map { .lock(block: $0) }
        }
        queue = Type5WriteQueue(items, stopWhenLockUnsupported: true)
    }

    private mutating func writeNext() -> TagStep<Void> {
        if let exchange = queue.next(session) { return exchange.step() }
        state = .finished
        return .done(())
    }
}
