import NFCTransport

/// Replaces the NDEF message (T5T 1.0 §7.5.3): detect, read the blocks the new TLV covers with
/// their security status, then write only the blocks that change, in the order of
/// ``Type5WritePlan`` (length 0 first, the message and terminator, the length last).
struct Type5WriteNDEFOperation: Type5Operation {
    enum State: Sendable { case idle, detecting, readingTarget(Type5Detection), writing, finished }

    private(set) var session: Type5Session
    let message: [UInt8]
    private var detector = Type5Detector()
    private var queue = Type5WriteQueue([])
    private(set) var state = State.idle
    /// The planned writes, once known (for tests and statistics).
    private(set) var plan: Type5WritePlan?

    init(session: Type5Session, message: [UInt8]) {
        self.session = session
        self.message = message
    }

    mutating func start() throws(TagEngineError) -> TagStep<Void> {
        detector.start(&session)
        state = .detecting
        return try advance()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .detecting, .readingTarget:
            try session.absorbRead(outcome)
            return try advance()
        case .writing:
            try queue.absorb(outcome)
            return writeNext()
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 write: an answer arrived with no command pending")
        }
    }

    private mutating func advance() throws(TagEngineError) -> TagStep<Void> {
        if let exchange = try session.nextRead() { return exchange.step() }
        switch state {
        case .detecting:
            guard let detection = try detector.evaluate(&session) else { return try session.continueReading() }
            try check(detection)
            let image = Type5WritePlan.image(of: message, layout: detection.layout)
            session.requestRead(upTo: detection.layout.tlvOffset + image.count, withStatus: true)
            state = .readingTarget(detection)
            return try advance()
        case .readingTarget(let detection):
            guard let blockSize = session.blockSize else {
                throw TagEngineError(.unexpectedResponse, "Type 5 write: block size unknown after reading")
            }
            let plan = try Type5WritePlan(message: message, layout: detection.layout, memory: session.memory, blockSize: blockSize)
            if let locked = plan.writes.first(where: { session.isLocked($0.block) }) {
                throw TagEngineError(
                    .readOnly, "block \(locked.block) is locked (its security status says so); the NDEF message cannot be updated")
            }
            self.plan = plan
            queue = Type5WriteQueue(plan.writes.map { .write(block: $0.block, bytes: $0.bytes) })
            state = .writing
            return writeNext()
        case .writing, .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 write: advanced with nothing to read")
        }
    }

    private mutating func writeNext() -> TagStep<Void> {
        if let exchange = queue.next(session) { return exchange.step() }
        state = .finished
        return .done(())
    }

    /// The write preconditions of T5T 1.0 §7.5.3: read and write access "always", room for the message.
    private func check(_ detection: Type5Detection) throws(TagEngineError) {
        let cc = detection.cc
        guard cc.readAccess == .always else {
            throw TagEngineError(.unsupported, "the capability container's read access is proprietary")
        }
        guard cc.writeAccess == .always else {
            throw TagEngineError(.readOnly, "the capability container's write access is \(cc.writeAccess.name) (CC byte 1 bits 1–0)")
        }
        if session.isLocked(session.block(containing: detection.layout.lengthOffset)) {
            throw TagEngineError(
                .readOnly, "block \(session.block(containing: detection.layout.lengthOffset)), which holds the NDEF length, is locked")
        }
        let layout = detection.layout
        let capacity = layout.capacity
        let needed = Type5NDEFLayout.header(forMessageLength: message.count).count + message.count
        guard message.count <= capacity, layout.tlvOffset + needed <= layout.areaEnd else {
            throw TagEngineError(
                .capacityExceeded,
                "a \(message.count)-byte message does not fit: the NDEF TLV at offset \(detection.layout.tlvOffset) can hold \(capacity) bytes"
            )
        }
    }
}
