import NFCBytes
import NFCTransport

/// What one Type 1 operation does once it knows enough of the tag: which blocks it still needs,
/// then which writes to send and what it produces.
protocol Type1Procedure: Sendable {
    associatedtype Output: Sendable
    /// Blocks to read before ``plan(_:)``; empty when the snapshot is enough. Called again after
    /// each batch of reads (a TLV walk may need more).
    func missingBlocks(_ snapshot: Type1Snapshot) throws(TagEngineError) -> [Int]
    /// The writes, in order, and the output once they are done.
    func plan(_ snapshot: Type1Snapshot) throws(TagEngineError) -> (writes: [Type1Write], output: Output)
}

/// Runs a ``Type1Procedure`` as a tag operation: RALL first (HR0, HR1 and blocks 00h–0Eh, the
/// whole static memory and the CC and TLVs of the dynamic one), then the blocks the procedure
/// still needs, then its writes, each checked against the bytes the tag reads back.
///
/// Missing blocks of the dynamic layout are read with RSEG when five or more of one segment are
/// needed and with READ8 otherwise: with each byte of a command in its own frame (BCM20203T512
/// data sheet, "Communication to the tag"), a READ8 costs about a quarter of an RSEG on the air,
/// so four READ8s still cost less than one RSEG.
struct Type1Operation<Procedure: Type1Procedure>: TagOperation {
    typealias Output = Procedure.Output

    let procedure: Procedure
    let uid: [UInt8]
    let limits: ExchangeLimits
    let readsSegments: Bool
    private var state: State = .start

    private enum State: Sendable {
        case start
        case readingAll
        case reading(Type1Snapshot, pending: [Read], requested: Set<Int>)
        case writing(Type1Snapshot, pending: [Type1Write], output: Procedure.Output)
        case finished
    }

    private enum Read: Sendable, Hashable {
        case segment(Int)
        case block(Int)
    }

    /// - Throws: `.unexpectedResponse` when the target's identifier is shorter than the 4-byte UID echo.
    init(_ procedure: Procedure, target: TargetInfo, limits: ExchangeLimits, readsSegments: Bool = true) throws(TagEngineError) {
        guard target.identifier.count >= 4 else {
            throw TagEngineError(.unexpectedResponse, "a Type 1 tag's UID echo has 4 bytes; the reader reported \(target.identifier.count)")
        }
        self.procedure = procedure
        uid = Array(target.identifier.prefix(4))
        self.limits = limits
        self.readsSegments = readsSegments
    }

    mutating func start() throws(TagEngineError) -> TagStep<Output> {
        guard case .start = state else { throw TagEngineError(.unexpectedResponse, "Type 1 operation started twice") }
        guard limits.maxResponseLength >= 122, limits.maxCommandLength >= 7 else {
            throw TagEngineError(
                .unsupported,
                "\(limits.readerPhrase) carries \(limits.maxResponseLength) B answers; a Type 1 tag's RALL answers 122 B (T1TOP §5.2)")
        }
        state = .readingAll
        return .transceive(Type1Command.readAll(uid), timeout: Type1Command.readTimeout)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Output> {
        switch state {
        case .start, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 1 operation resumed out of turn")
        case .readingAll:
            let memory = try Type1Memory(readAll: try outcome.answer())
            return try next(Type1Snapshot(memory: memory, uid: uid), requested: [])
        case .reading(var snapshot, var pending, let requested):
            let read = pending.removeFirst()
            let answer = try outcome.answer()
            switch read {
            case .segment(let segment):
                guard answer.count == 129, answer[0] == UInt8(truncatingIfNeeded: segment << 4) else {
                    throw TagEngineError(
                        .unexpectedResponse, "RSEG \(segment) answered \(answer.count) bytes: \(Hex.encode(answer.prefix(4)))…")
                }
                snapshot.memory.store(Array(answer[1...]), at: segment * 128)
            case .block(let block):
                guard answer.count == 9, answer[0] == UInt8(truncatingIfNeeded: block) else {
                    throw TagEngineError(.unexpectedResponse, "READ8 of block \(block) answered \(Hex.encode(answer))")
                }
                snapshot.memory.store(Array(answer[1...]), at: block * 8)
            }
            if !pending.isEmpty {
                state = .reading(snapshot, pending: pending, requested: requested)
                return send(pending[0])
            }
            return try next(snapshot, requested: requested)
        case .writing(var snapshot, var pending, let output):
            let write = pending.removeFirst()
            let answer = try outcome.answer()
            let head: UInt8 =
                switch write.target {
                case .byte(let address): UInt8(truncatingIfNeeded: address)
                case .block(let block): UInt8(truncatingIfNeeded: block)
                }
            guard answer.first == head, Array(answer.dropFirst()) == write.expected else {
                throw TagEngineError(
                    .tagError,
                    "the write at byte \(write.address) read back \(Hex.encode(answer)), expected \(Hex.encode([head] + write.expected))",
                    tagStatus: answer)
            }
            snapshot.memory.store(write.expected, at: write.address)
            return finishOrWrite(snapshot, pending: pending, output: output)
        }
    }

    /// Asks the procedure what it still needs; reads it, or plans and writes.
    private mutating func next(_ snapshot: Type1Snapshot, requested: Set<Int>) throws(TagEngineError) -> TagStep<Output> {
        let missing = try procedure.missingBlocks(snapshot).filter { !snapshot.memory.knows(block: $0) }
        if !missing.isEmpty {
            if let beyond = missing.first(where: { $0 >= snapshot.memory.blockCount || snapshot.memory.isStatic }) {
                throw TagEngineError(
                    .invalidNDEFArea, "the data needs block \(beyond), beyond the tag's \(snapshot.memory.blockCount) blocks")
            }
            if let again = missing.first(where: { requested.contains($0) }) {
                throw TagEngineError(.unexpectedResponse, "block \(again) was read and is still unknown")
            }
            guard limits.maxCommandLength >= 14 else {
                throw TagEngineError(
                    .unsupported,
                    "\(limits.readerPhrase) carries \(limits.maxCommandLength) B commands; READ8 and RSEG need 14 B (T1TOP §5.2)")
            }
            let reads = Self.reads(for: missing, segments: readsSegments && limits.maxResponseLength >= 129)
            state = .reading(snapshot, pending: reads, requested: requested.union(missing))
            return send(reads[0])
        }
        let (planned, output) = try procedure.plan(snapshot)
        return finishOrWrite(snapshot, pending: try fitted(planned, snapshot.memory), output: output)
    }

    /// The writes as the reader can carry them: on a reader whose commands stop short of the 14
    /// bytes of WRITE-E8/NE8, a block write within blocks 01h–0Eh becomes one-byte writes of its
    /// changed bytes; beyond block 0Eh only the 8-byte commands reach, and the operation is
    /// refused before its first write.
    private func fitted(_ writes: [Type1Write], _ memory: Type1Memory) throws(TagEngineError) -> [Type1Write] {
        guard limits.maxCommandLength < 14 else { return writes }
        var result: [Type1Write] = []
        for write in writes {
            guard case .block(let block) = write.target else {
                result.append(write)
                continue
            }
            guard block <= 0x0E, let old = memory.block(block) else {
                throw TagEngineError(
                    .unsupported,
                    "\(limits.readerPhrase) carries \(limits.maxCommandLength) B commands; writing block \(block) needs WRITE-E8 (14 B)")
            }
            for (index, (before, after)) in zip(old, write.expected).enumerated() where before != after {
                result.append(.byte(block * 8 + index, after, over: before))
            }
        }
        return result
    }

    private mutating func finishOrWrite(_ snapshot: Type1Snapshot, pending: [Type1Write], output: Output) -> TagStep<Output> {
        guard let write = pending.first else {
            state = .finished
            return .done(output)
        }
        state = .writing(snapshot, pending: pending, output: output)
        return .transceive(write.frame(uid), timeout: Type1Command.writeTimeout)
    }

    private func send(_ read: Read) -> TagStep<Output> {
        switch read {
        case .segment(let segment): .transceive(Type1Command.readSegment(segment, uid), timeout: Type1Command.readTimeout)
        case .block(let block): .transceive(Type1Command.read8(block, uid), timeout: Type1Command.readTimeout)
        }
    }

    /// RSEG for a segment with five or more missing blocks (when allowed and the reader takes its
    /// 129-byte answer), READ8 for the others.
    private static func reads(for blocks: [Int], segments: Bool) -> [Read] {
        let bySegment = Dictionary(grouping: blocks, by: { $0 / 16 })
        var reads: [Read] = []
        for segment in bySegment.keys.sorted() {
            let needed = bySegment[segment, default: []].sorted()
            if needed.count >= 5, segments {
                reads.append(.segment(segment))
            } else {
                reads += needed.map { .block($0) }
            }
        }
        return reads
    }
}
