import NFCTransport

/// Reads the NDEF message of a Type 3 Tag (the T3T NDEF read procedure).
///
/// Detection reads block 0 — on FeliCa Lite-S with MC and the first data blocks in the same
/// command — then the remaining blocks 1…⌈Ln/16⌉ go out in commands of Nbr blocks (within the
/// chip's and the reader's limits), and the message is the first Ln bytes.
///
/// WriteF `0F` means a write was interrupted and the data may be inconsistent (T3T 1.0 §6.2):
/// the read then fails with `.invalidNDEFArea` ("write in progress") rather than return bytes
/// that may mix two messages, or an empty message that would hide the state.
struct Type3ReadOperation: TagOperation {
    typealias Output = NDEFReadResult

    enum State: Sendable {
        case detecting(Type3Detector)
        case reading(Type3BlockReader, Type3Detection, Type3AttributeInformation)
        case finished
    }

    private(set) var state: State

    /// - Parameter readAhead: data blocks to read along with block 0 (the whole Lite-S area fits).
    init(link: Type3Link, readAhead: Int = FeliCaLiteMemoryConfiguration.userBlockCount - 1) {
        state = .detecting(Type3Detector(link: link, readAhead: readAhead))
    }

    mutating func start() throws(TagEngineError) -> TagStep<NDEFReadResult> {
        guard case .detecting(var detector) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 3 read started twice")
        }
        let step = try detector.start()
        state = .detecting(detector)
        return try advance(step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        switch state {
        case .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 read resumed out of turn")
        case .detecting(var detector):
            let step = try detector.resume(with: outcome)
            state = .detecting(detector)
            return try advance(step)
        case .reading(var reader, let detection, let attribute):
            try reader.accept(outcome)
            return try continueReading(reader, detection, attribute)
        }
    }

    private mutating func advance(_ step: TagStep<Type3Detection>) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        switch step.relay(to: NDEFReadResult.self) {
        case .pass(let next):
            return next
        case .finished(let detection):
            let attribute = try detection.requireNDEF()
            if attribute.isWriteInProgress {
                throw TagEngineError(
                    .invalidNDEFArea,
                    "write in progress: the attribute block's WriteF is 0F, the NDEF data may be inconsistent (an interrupted write)"
                )
            }
            let count = (attribute.length + 15) / 16
            let missing = (0..<count).map { UInt16($0 + 1) }.filter { detection.blocks[$0] == nil }
            let batches = try detection.link.readBatches(missing, nbr: Int(attribute.blocksPerRead))
            return try continueReading(Type3BlockReader(link: detection.link, batches: batches), detection, attribute)
        }
    }

    private mutating func continueReading(
        _ reader: Type3BlockReader, _ detection: Type3Detection, _ attribute: Type3AttributeInformation
    ) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        var reader = reader
        if let next = reader.next() {
            state = .reading(reader, detection, attribute)
            return .transceive(next.frame, timeout: next.timeout)
        }
        state = .finished
        let count = (attribute.length + 15) / 16
        var message: [UInt8] = []
        message.reserveCapacity(count * 16)
        for index in 0..<count {
            let block = UInt16(index + 1)
            guard let data = reader.blocks[block] ?? detection.blocks[block] else {
                throw TagEngineError(.unexpectedResponse, "block \(block) of the NDEF data was not read")
            }
            message += data
        }
        return .done(NDEFReadResult(status: detection.status, message: Array(message.prefix(attribute.length))))
    }
}

/// The NDEF status (Core NFC's `queryNDEFStatus`): detection alone.
struct Type3StatusOperation: TagOperation {
    typealias Output = NDEFStatus

    private var detector: Type3Detector

    init(link: Type3Link) {
        detector = Type3Detector(link: link)
    }

    mutating func start() throws(TagEngineError) -> TagStep<NDEFStatus> {
        Self.map(try detector.start())
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<NDEFStatus> {
        Self.map(try detector.resume(with: outcome))
    }

    private static func map(_ step: TagStep<Type3Detection>) -> TagStep<NDEFStatus> {
        switch step.relay(to: NDEFStatus.self) {
        case .pass(let next): next
        case .finished(let detection): .done(detection.status)
        }
    }
}
