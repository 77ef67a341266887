import NFCTransport

/// Reads blocks of the NDEF read service, one planned command at a time: a piece of the larger
/// state machines, which forward its commands and feed back the answers.
struct Type3BlockReader: Sendable {
    private let link: Type3Link
    private var batches: [[UInt16]]
    private var inFlight: [UInt16] = []
    /// When set, a refused multi-block read is retried block by block and a refused single block
    /// is recorded in ``refused`` instead of failing (for dumps); a block refused as beyond the
    /// service (Status Flag 2 `A8`) ends the reading, so a lying Nmaxb cannot cost thousands of
    /// commands.
    private let tolerant: Bool
    /// The blocks read so far.
    private(set) var blocks: [UInt16: [UInt8]] = [:]
    /// Blocks the tag refused to read (tolerant mode), with the status flags.
    private(set) var refused: [UInt16: [UInt8]] = [:]

    /// - Parameter batches: the block numbers of each command (``Type3Link/readBatches(_:nbr:)``).
    init(link: Type3Link, batches: [[UInt16]], tolerant: Bool = false) {
        self.link = link
        self.batches = batches.filter { !$0.isEmpty }
        self.tolerant = tolerant
    }

    /// The next command, or `nil` when every block has been read.
    mutating func next() -> (frame: [UInt8], timeout: Duration)? {
        guard !batches.isEmpty else { return nil }
        inFlight = batches.removeFirst()
        return (FeliCaCommand.read(idm: link.idm, blocks: inFlight), link.readTimeout(blocks: inFlight.count))
    }

    /// Takes the outcome of the last command.
    mutating func accept(_ outcome: Result<[UInt8], TransportError>) throws(TagEngineError) {
        let answer = try outcome.answer()
        do {
            let data = try FeliCaResponse.read(answer, idm: link.idm, blocks: inFlight)
            for (block, bytes) in zip(inFlight, data) { blocks[block] = bytes }
        } catch  where tolerant && error.code == .tagError {
            if inFlight.count > 1 {
                batches.insert(contentsOf: inFlight.map { [$0] }, at: 0)
            } else if let block = inFlight.first {
                refused[block] = error.tagStatus ?? []
                if error.tagStatus?.last == 0xA8 { batches = [] }
            }
        }
        inFlight = []
    }
}

/// Writes blocks of the NDEF write service (or the MC block), one planned command at a time.
struct Type3BlockWriter: Sendable {
    private let link: Type3Link
    private var batches: [[Type3BlockWrite]]
    private var inFlight: [Type3BlockWrite] = []

    /// - Parameter batches: the blocks of each command, sent in this order.
    init(link: Type3Link, batches: [[Type3BlockWrite]]) {
        self.link = link
        self.batches = batches.filter { !$0.isEmpty }
    }

    /// The next command, or `nil` when every block has been written.
    mutating func next() -> (frame: [UInt8], timeout: Duration)? {
        guard !batches.isEmpty else { return nil }
        inFlight = batches.removeFirst()
        return (FeliCaCommand.write(idm: link.idm, blocks: inFlight), link.writeTimeout(blocks: inFlight.count))
    }

    /// Takes the outcome of the last command.
    mutating func accept(_ outcome: Result<[UInt8], TransportError>) throws(TagEngineError) {
        let answer = try outcome.answer()
        try FeliCaResponse.write(answer, idm: link.idm, blocks: inFlight.map(\.block))
        inFlight = []
    }
}

extension TagStep {
    /// A sub-operation's step seen from an enclosing operation: commands pass through, `done`
    /// hands back the sub-operation's output.
    enum Relay<Outer: Sendable> {
        case pass(TagStep<Outer>)
        case finished(Output)
    }

    /// Splits this step for an enclosing operation whose output is `Outer`.
    func relay<Outer: Sendable>(to _: Outer.Type) -> Relay<Outer> {
        switch self {
        case .transceive(let frame, let timeout): .pass(.transceive(frame, timeout: timeout))
        case .reactivate: .pass(.reactivate)
        case .done(let output): .finished(output)
        }
    }
}
