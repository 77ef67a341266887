import NFCTransport

/// What every Type 3 operation needs to build its commands: the IDm to address, the PMm (chip
/// and timeouts), and how many blocks one command may carry on this reader.
struct Type3Link: Sendable, Hashable {
    /// The IDm commands carry: the NDEF system's once Polling for `12FC` has answered.
    var idm: [UInt8]
    let pmm: [UInt8]
    let ic: FeliCaIC
    /// The system code the reader activated the card with.
    let activatedSystemCode: UInt16
    let limits: ExchangeLimits
    /// A cap on blocks per read (``Type3Engine/maximumBlocksPerRead``).
    let maximumBlocksPerRead: Int?

    /// - Throws: `.unsupported` when the target is not a FeliCa card.
    init(target: TargetInfo, limits: ExchangeLimits, maximumBlocksPerRead: Int? = nil) throws(TagEngineError) {
        guard case .felica(let felica) = target.parameters else {
            throw TagEngineError(.unsupported, "the Type 3 engine needs a FeliCa target, not \(target.technology)")
        }
        guard target.identifier.count == 8 else {
            throw TagEngineError(.unexpectedResponse, "a FeliCa IDm has 8 bytes, the target reports \(target.identifier.count)")
        }
        idm = target.identifier
        pmm = felica.pmm
        ic = FeliCaIC(pmm: felica.pmm)
        activatedSystemCode = felica.systemCode
        self.limits = limits
        self.maximumBlocksPerRead = maximumBlocksPerRead.map { max(1, $0) }
    }

    /// Whether commands must be sent as the reader's read/write pseudo-APDUs allow: contiguous
    /// blocks, reads of `readLength` bytes, one block per write.
    private var pseudoAPDULength: Int? {
        if case .readAndWriteOnly(let length) = limits.nativeCommands { return length }
        return nil
    }

    // MARK: Timeouts

    func readTimeout(blocks: Int) -> Duration { FeliCaResponseTime.maximum(pmm: pmm, .read, units: blocks) }
    func writeTimeout(blocks: Int) -> Duration { FeliCaResponseTime.maximum(pmm: pmm, .write, units: blocks) }

    // MARK: Command sizes

    /// The most blocks one read command may carry: Nbr (`nbr`, or the chip's known limit before
    /// the attribute block is read, else one), the chip's limit, the cap, 15 (the frame length,
    /// 12 + 16·15 bytes), the pseudo-APDU read length and the reader's answer buffer.
    func readBlocksPerCommand(nbr: Int?) -> Int {
        var perCommand = min(nbr ?? ic.readLimit ?? 1, 15)
        if let limit = ic.readLimit { perCommand = min(perCommand, limit) }
        if let cap = maximumBlocksPerRead { perCommand = min(perCommand, cap) }
        if let length = pseudoAPDULength { perCommand = min(perCommand, length / 16) }
        return min(perCommand, (limits.maxResponseLength - 12) / 16)
    }

    /// Whether each command must name consecutive blocks (readers that translate commands into
    /// PC/SC pseudo-APDUs).
    var requiresContiguousBlocks: Bool { pseudoAPDULength != nil }

    /// Splits blocks to read into commands, in order, each within ``readBlocksPerCommand(nbr:)``
    /// and the reader's command buffer.
    /// - Throws: `.unsupported` when the reader cannot carry one block.
    func readBatches(_ blocks: [UInt16], nbr: Int?) throws(TagEngineError) -> [[UInt16]] {
        let perCommand = readBlocksPerCommand(nbr: nbr)
        guard perCommand >= 1, blocks.allSatisfy({ FeliCaCommand.readLength([$0]) <= limits.maxCommandLength }) else {
            throw TagEngineError(
                .unsupported,
                "\(limits.readerPhrase) carries \(limits.maxCommandLength) B commands and \(limits.maxResponseLength) B answers: not one 16-byte block"
            )
        }
        return batches(blocks, perCommand: perCommand) { FeliCaCommand.readLength($0) <= limits.maxCommandLength }
    }

    /// Splits blocks to write into commands, in order: at most Nbw, the chip's limit, 13 (the
    /// frame length, 13 + 18·13 bytes), one through pseudo-APDUs, and the reader's command buffer.
    /// - Throws: `.unsupported` when the reader cannot carry one block.
    func writeBatches(_ writes: [Type3BlockWrite], nbw: Int) throws(TagEngineError) -> [[Type3BlockWrite]] {
        var perCommand = min(max(nbw, 1), 13)
        if let limit = ic.writeLimit { perCommand = min(perCommand, limit) }
        if pseudoAPDULength != nil { perCommand = 1 }
        guard writes.allSatisfy({ FeliCaCommand.writeLength([$0]) <= limits.maxCommandLength }) else {
            throw TagEngineError(
                .unsupported, "\(limits.readerPhrase) carries \(limits.maxCommandLength) B commands: not a one-block write")
        }
        let numbers = writes.map(\.block)
        let byNumber = Dictionary(writes.map { ($0.block, $0) }, uniquingKeysWith: { _, last in last })
        let grouped = batches(numbers, perCommand: perCommand) { group in
            FeliCaCommand.writeLength(group.compactMap { byNumber[$0] }) <= limits.maxCommandLength
        }
        return grouped.map { group in group.compactMap { byNumber[$0] } }
    }

    /// One command writing one block (the attribute or MC block), checked against the reader's
    /// command buffer.
    /// - Throws: `.unsupported` when the reader cannot carry it.
    func singleWrite(_ block: UInt16, _ data: [UInt8]) throws(TagEngineError) -> [Type3BlockWrite] {
        try writeBatches([Type3BlockWrite(block: block, data: data)], nbw: 1).first ?? []
    }

    /// Greedy grouping: a block joins the current command while the count, the fit test and (for
    /// pseudo-APDU readers) contiguity allow.
    private func batches(_ blocks: [UInt16], perCommand: Int, fits: ([UInt16]) -> Bool) -> [[UInt16]] {
        var result: [[UInt16]] = []
        var current: [UInt16] = []
        for block in blocks {
            let contiguous = current.last.map { $0 &+ 1 == block } ?? true
            if !current.isEmpty, current.count >= perCommand || !fits(current + [block]) || (requiresContiguousBlocks && !contiguous) {
                result.append(current)
                current = []
            }
            current.append(block)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
