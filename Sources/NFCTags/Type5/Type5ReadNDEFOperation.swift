import NFCTransport

/// An operation over a ``Type5Session`` whose learning the engine keeps afterwards.
protocol Type5Operation: TagOperation {
    var session: Type5Session { get }
}

/// Detects the NDEF message and, unless only the status is wanted, reads it (T5T 1.0 §7.5.1 NDEF
/// detection, §7.5.2 NDEF read).
///
/// Two exchanges for a message of any size the reader can carry in one answer: the detection
/// read of blocks 0–3 (CC and NDEF TLV header, with security status), then one Read Multiple
/// Blocks from block 4 to the message's last block — within a few milliseconds of the single read
/// of every needed block that is the physical minimum.
struct Type5ReadNDEFOperation: Type5Operation {
    enum State: Sendable { case idle, detecting, readingMessage(Type5Detection), finished }

    private(set) var session: Type5Session
    /// Only the status: no message read, and a tag without a usable CC is "not supported".
    let statusOnly: Bool
    private var detector = Type5Detector()
    private(set) var state = State.idle

    init(session: Type5Session, statusOnly: Bool = false) {
        self.session = session
        self.statusOnly = statusOnly
    }

    mutating func start() throws(TagEngineError) -> TagStep<NDEFReadResult> {
        detector.start(&session)
        state = .detecting
        return try advance()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        switch state {
        case .detecting, .readingMessage:
            try session.absorbRead(outcome)
            return try advance()
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 read: an answer arrived with no command pending")
        }
    }

    private mutating func advance() throws(TagEngineError) -> TagStep<NDEFReadResult> {
        if let exchange = try session.nextRead() { return exchange.step() }
        switch state {
        case .detecting:
            let detection: Type5Detection
            do {
                guard let found = try detector.evaluate(&session) else { return try session.continueReading() }
                detection = found
            } catch {
                if statusOnly, error.code == .notFormatted || error.code == .invalidCapabilityContainer {
                    state = .finished
                    return .done(NDEFReadResult(status: .notSupported, message: []))
                }
                throw error
            }
            let status = detection.status(session)
            if !statusOnly, detection.cc.readAccess != .always {
                throw TagEngineError(.unsupported, "the capability container's read access is proprietary (CC byte 1 bits 3–2 = 10)")
            }
            if statusOnly || detection.layout.messageLength == 0 {
                state = .finished
                return .done(NDEFReadResult(status: status, message: []))
            }
            let layout = detection.layout
            session.requestRead(upTo: layout.valueOffset + layout.messageLength, withStatus: false)
            state = .readingMessage(detection)
            return try advance()
        case .readingMessage(let detection):
            let layout = detection.layout
            let end = layout.valueOffset + layout.messageLength
            guard session.memory.count >= end else {
                throw TagEngineError(
                    .unexpectedResponse, "the tag's memory ended at byte \(session.memory.count), before the NDEF message's end at \(end)")
            }
            state = .finished
            return .done(NDEFReadResult(status: detection.status(session), message: Array(session.memory[layout.valueOffset..<end])))
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 read: advanced with nothing to do")
        }
    }
}
