import NFCTransport

/// Wipes a Type 5 tag back to an empty formatted tag, whatever its TLVs hold (`nfc format --wipe`).
///
/// Reads the whole memory with block security status, then: the block where the data area
/// begins gets an empty NDEF message TLV and a terminator (`03 00 FE`, T5T 1.0 §4.4) first, so the
/// tag reads as empty from the first write on; every other block of the data area that is not
/// zero is then zeroed in address order. A valid CC stays (its write access must be granted,
/// §4.3.2.4); a tag without one gets the CC ``Type5FormatOperation`` would write, last, blocks
/// from the last to block 0 so the magic number comes last. A locked block that would change is
/// refused before anything is written (Get Multiple Block Security Status, ISO/IEC 15693-3
/// §10.4.13). Done with the number of blocks written.
struct Type5WipeOperation: Type5Operation {
    enum State: Sendable { case idle, reading, writing, finished }

    private(set) var session: Type5Session
    let information: Type5SystemInformation
    private var queue = Type5WriteQueue([])
    private var writes = 0
    private(set) var state = State.idle

    init(session: Type5Session, information: Type5SystemInformation) {
        self.session = session
        self.information = information
    }

    mutating func start() throws(TagEngineError) -> TagStep<Int> {
        guard let count = information.blockCount, let size = information.blockSize else {
            throw TagEngineError(.unsupported, Type5SystemInformation.noMemorySize(limits: session.limits, "so its memory cannot be wiped"))
        }
        session.requestRead(upTo: session.chip.usableBlocks(of: count) * size, withStatus: true)
        state = .reading
        return try session.continueReading()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Int> {
        switch state {
        case .reading:
            try session.absorbRead(outcome)
            if let exchange = try session.nextRead() { return exchange.step() }
            return try plan()
        case .writing:
            try queue.absorb(outcome)
            return writeNext()
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 wipe: an answer arrived with no command pending")
        }
    }

    private mutating func plan() throws(TagEngineError) -> TagStep<Int> {
        guard let blockSize = session.blockSize, blockSize > 0, let count = information.blockCount else {
            throw TagEngineError(.unexpectedResponse, "Type 5 wipe: planned before reading")
        }
        let memory = session.memory
        let total = min(memory.count, session.chip.usableBlocks(of: count) * blockSize)
        let cc: Type5CapabilityContainer
        let blank: Bool
        if let magic = memory.first,
            magic == Type5CapabilityContainer.oneByteAddressMagic || magic == Type5CapabilityContainer.twoByteAddressMagic
        {
            cc = try Type5CapabilityContainer(parsing: memory[0..<min(8, memory.count)])
            guard cc.writeAccess == .always else {
                throw TagEngineError(.readOnly, "cannot wipe: the CC grants write access \(cc.writeAccess.name)")
            }
            blank = false
        } else {
            cc = try Type5FormatOperation.capabilityContainer(
                blockCount: total / blockSize, blockSize: blockSize, session: session, information: information)
            blank = true
        }
        let end = min(cc.areaEnd, total)
        guard cc.length + 3 <= end else {
            throw TagEngineError(.unsupported, "cannot wipe: the data area ends at byte \(end), before an empty NDEF TLV fits")
        }
        var target = Array(memory[0..<total])
        if blank { target.replaceSubrange(0..<cc.length, with: cc.bytes) }
        for offset in cc.length..<end { target[offset] = 0 }
        target.replaceSubrange(cc.length..<cc.length + 3, with: [Type5TLVScan.ndefTLV, 0x00, Type5TLVScan.terminatorTLV])

        let blocks = (end + blockSize - 1) / blockSize
        let changed = (0..<blocks).filter { block in
            target[(block * blockSize)..<min((block + 1) * blockSize, total)]
                != memory[(block * blockSize)..<min((block + 1) * blockSize, total)]
        }
        if let block = changed.first(where: session.isLocked) {
            throw TagEngineError(.readOnly, "cannot wipe: block \(block) is locked (Lock Block is permanent)")
        }
        let first = cc.length / blockSize
        let ccBlocks = blank ? Set(0..<((cc.length + blockSize - 1) / blockSize)) : []
        var order = changed.contains(first) && !ccBlocks.contains(first) ? [first] : []
        order += changed.filter { $0 != first && !ccBlocks.contains($0) }
        order += changed.filter { ccBlocks.contains($0) }.reversed()  // a blank tag's CC last, its magic number last of all
        queue = Type5WriteQueue(
            order.map { block in .write(block: block, bytes: Array(target[(block * blockSize)..<min((block + 1) * blockSize, total)])) })
        writes = order.count
        state = .writing
        return writeNext()
    }

    private mutating func writeNext() -> TagStep<Int> {
        if let exchange = queue.next(session) { return exchange.step() }
        state = .finished
        return .done(writes)
    }
}
