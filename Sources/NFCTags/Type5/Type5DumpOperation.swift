import NFCTransport

/// Reads every block with its security status, for `nfc dump`: rows `block N` (with
/// ` (locked)` when Lock Block has locked it) and the block's bytes.
///
/// The block count comes from the system information; a tag that reports none is read as far as
/// its capability container's data area reaches.
struct Type5DumpOperation: Type5Operation {
    enum State: Sendable { case idle, detecting, reading, finished }

    private(set) var session: Type5Session
    let blockCount: Int?
    private var detector = Type5Detector(ccOnly: true)
    private(set) var state = State.idle

    init(session: Type5Session, blockCount: Int?, blockSize: Int?) {
        self.session = session
        self.blockCount = blockCount
        if let blockSize, let blockCount {
            self.session.requestRead(upTo: blockCount * blockSize, withStatus: true)
        }
    }

    mutating func start() throws(TagEngineError) -> TagStep<[(String, [UInt8])]> {
        if session.readTarget == 0 {
            detector.start(&session)
            state = .detecting
        } else {
            state = .reading
        }
        return try session.continueReading()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<[(String, [UInt8])]> {
        switch state {
        case .detecting, .reading:
            try session.absorbRead(outcome)
            if let exchange = try session.nextRead() { return exchange.step() }
            if state == .detecting {
                guard let detection = try detector.evaluate(&session) else { return try session.continueReading() }
                session.requestRead(upTo: detection.cc.areaEnd, withStatus: true)
                state = .reading
                if let exchange = try session.nextRead() { return exchange.step() }
            }
            state = .finished
            return .done(rows())
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 dump: an answer arrived with no command pending")
        }
    }

    private func rows() -> [(String, [UInt8])] {
        guard let size = session.blockSize, size > 0 else { return [] }
        let count = min(session.memory.count / size, blockCount ?? .max)
        return (0..<count).map { block in
            let label = session.isLocked(block) ? "block \(block) (locked)" : "block \(block)"
            return (label, Array(session.memory[(block * size)..<((block + 1) * size)]))
        }
    }
}
