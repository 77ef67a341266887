import NFCTransport

/// Writes an NDEF message to a Type 3 Tag in the tearing-safe order of the T3T NDEF write
/// procedure (T3T 1.0 §6.2, WriteF).
///
/// 1. Detection reads block 0 (with MC and the first data blocks on FeliCa Lite-S); the rest of
///    the blocks the new message needs are read so that blocks already holding the wanted bytes
///    are not written again.
/// 2. The attribute block is written with WriteF = `0F` (the old Ln kept), unless it already says
///    so (a write interrupted before).
/// 3. The changed data blocks, Nbw per command (any block list, not only consecutive blocks).
/// 4. The attribute block with the new Ln, WriteF = `00` and its new checksum.
///
/// Cut at any command, the tag holds the old message (before step 2 lands), the new one (after
/// step 4 lands), or WriteF `0F`, which readers report as a write in progress — never a message
/// that mixes the two and reads as valid. When no data block changes, step 4 alone (one block,
/// atomic) updates Ln; an identical message writes nothing.
struct Type3WriteOperation: TagOperation {
    typealias Output = Void

    enum State: Sendable {
        case detecting(Type3Detector)
        case reading(Type3BlockReader, Type3Detection, Type3AttributeInformation)
        case writing(Type3BlockWriter)
        case finished
    }

    let message: [UInt8]
    private(set) var state: State

    init(link: Type3Link, message: [UInt8]) {
        self.message = message
        state = .detecting(Type3Detector(link: link, readAhead: (message.count + 15) / 16))
    }

    mutating func start() throws(TagEngineError) -> TagStep<Void> {
        guard case .detecting(var detector) = state else {
            throw TagEngineError(.unexpectedResponse, "Type 3 write started twice")
        }
        let step = try detector.start()
        state = .detecting(detector)
        return try advance(step)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 write resumed out of turn")
        case .detecting(var detector):
            let step = try detector.resume(with: outcome)
            state = .detecting(detector)
            return try advance(step)
        case .reading(var reader, let detection, let attribute):
            try reader.accept(outcome)
            return try continueReading(reader, detection, attribute)
        case .writing(var writer):
            try writer.accept(outcome)
            return send(writer)
        }
    }

    private mutating func advance(_ step: TagStep<Type3Detection>) throws(TagEngineError) -> TagStep<Void> {
        switch step.relay(to: Void.self) {
        case .pass(let next):
            return next
        case .finished(let detection):
            let attribute = try detection.requireNDEF()
            guard detection.isWritable(attribute) else {
                let why = attribute.isWritable ? "MC (block 0x88) makes NDEF blocks read-only" : "RWFlag is 00"
                throw TagEngineError(.readOnly, "the Type 3 Tag is read-only: \(why)")
            }
            guard message.count <= attribute.capacity else {
                throw TagEngineError(
                    .capacityExceeded,
                    "a \(message.count) B message does not fit \(attribute.capacity) B (Nmaxb \(attribute.maximumBlocks))"
                )
            }
            let missing = (0..<blockCount).map { UInt16($0 + 1) }.filter { detection.blocks[$0] == nil }
            let batches = try detection.link.readBatches(missing, nbr: Int(attribute.blocksPerRead))
            return try continueReading(Type3BlockReader(link: detection.link, batches: batches), detection, attribute)
        }
    }

    private var blockCount: Int { (message.count + 15) / 16 }

    private mutating func continueReading(
        _ reader: Type3BlockReader, _ detection: Type3Detection, _ attribute: Type3AttributeInformation
    ) throws(TagEngineError) -> TagStep<Void> {
        var reader = reader
        if let next = reader.next() {
            state = .reading(reader, detection, attribute)
            return .transceive(next.frame, timeout: next.timeout)
        }
        var changed: [Type3BlockWrite] = []
        for index in 0..<blockCount {
            let block = UInt16(index + 1)
            let wanted = desired(index)
            if (reader.blocks[block] ?? detection.blocks[block]) != wanted {
                changed.append(Type3BlockWrite(block: block, data: wanted))
            }
        }
        var final = attribute
        final.writeFlag = Type3AttributeInformation.writeDone
        final.length = message.count
        var batches: [[Type3BlockWrite]] = []
        if changed.isEmpty {
            if final != attribute { batches = [try detection.link.singleWrite(0, final.block)] }
        } else {
            if !attribute.isWriteInProgress {
                var begin = attribute
                begin.writeFlag = Type3AttributeInformation.writeInProgress
                batches.append(try detection.link.singleWrite(0, begin.block))
            }
            batches += try detection.link.writeBatches(changed, nbw: Int(attribute.blocksPerWrite))
            batches.append(try detection.link.singleWrite(0, final.block))
        }
        return send(Type3BlockWriter(link: detection.link, batches: batches))
    }

    /// Data block `index` (from 0) of the new message, zero-padded to 16 bytes.
    private func desired(_ index: Int) -> [UInt8] {
        let start = index * 16
        let bytes = Array(message[start..<min(start + 16, message.count)])
        return bytes + [UInt8](repeating: 0, count: 16 - bytes.count)
    }

    private mutating func send(_ writer: Type3BlockWriter) -> TagStep<Void> {
        var writer = writer
        guard let next = writer.next() else {
            state = .finished
            return .done(())
        }
        state = .writing(writer)
        return .transceive(next.frame, timeout: next.timeout)
    }
}
