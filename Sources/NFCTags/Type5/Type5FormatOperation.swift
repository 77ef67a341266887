import NFCTransport

/// Formats a blank tag for NDEF (T5T 1.0 §4.3 CC, §4.4 TLVs): a CC sized to the memory and
/// an empty NDEF message TLV `03 00` with a terminator `FE`.
///
/// The CC has 4 bytes (`E1 40 MLEN features`) when the data area fits MLEN ≤ 255 (2040 bytes) and
/// 1-byte block numbers; otherwise 8 bytes, with magic `E2` when the tag has more than 256 blocks.
/// Features: MBREAD when Read Multiple Blocks works, LOCK BLOCK when the tag's command list or
/// the chip table says it has Lock Block, SPECIAL FRAME for chips that need the option flag on
/// writes. Blocks are written from the last to block 0, so the magic number comes last: an
/// interrupted format leaves a tag that still reads as blank.
struct Type5FormatOperation: Type5Operation {
    enum State: Sendable { case idle, reading, writing, finished }

    private(set) var session: Type5Session
    let information: Type5SystemInformation
    private var queue = Type5WriteQueue([])
    private(set) var state = State.idle
    private(set) var capabilityContainer: Type5CapabilityContainer?

    init(session: Type5Session, information: Type5SystemInformation) {
        self.session = session
        self.information = information
    }

    mutating func start() throws(TagEngineError) -> TagStep<Void> {
        guard let count = information.blockCount, let size = information.blockSize else {
            throw TagEngineError(.unsupported, Type5SystemInformation.noMemorySize(limits: session.limits, "so no CC can be sized for it"))
        }
        let cc = try Self.capabilityContainer(
            blockCount: session.chip.usableBlocks(of: count), blockSize: size, session: session, information: information)
        capabilityContainer = cc
        session.requestRead(upTo: cc.length + 3, withStatus: true)
        state = .reading
        return try session.continueReading()
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .reading:
            try session.absorbRead(outcome)
            if let exchange = try session.nextRead() { return exchange.step() }
            return try plan()
        case .writing:
            try queue.absorb(outcome)
            return writeNext()
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 5 format: an answer arrived with no command pending")
        }
    }

    private mutating func plan() throws(TagEngineError) -> TagStep<Void> {
        guard let cc = capabilityContainer, let blockSize = session.blockSize else {
            throw TagEngineError(.unexpectedResponse, "Type 5 format: planned before reading")
        }
        if let magic = session.memory.first,
            magic == Type5CapabilityContainer.oneByteAddressMagic || magic == Type5CapabilityContainer.twoByteAddressMagic
        {
            throw TagEngineError(
                .alreadyFormatted, "block 0 already holds a capability container (magic 0x\(String(magic, radix: 16, uppercase: true)))")
        }
        guard blockSize == information.blockSize else {
            throw TagEngineError(
                .unexpectedResponse, "blocks read hold \(blockSize) bytes, the system information says \(information.blockSize ?? 0)")
        }
        let image = cc.bytes + [Type5TLVScan.ndefTLV, 0x00, Type5TLVScan.terminatorTLV]
        let blocks = (image.count + blockSize - 1) / blockSize
        guard session.memory.count >= blocks * blockSize else {
            throw TagEngineError(.unexpectedResponse, "Type 5 format: the first \(blocks) blocks were not read")
        }
        var target = Array(session.memory[0..<(blocks * blockSize)])
        target.replaceSubrange(0..<image.count, with: image)
        var items: [Type5WriteQueue.Item] = []
        for block in (0..<blocks).reversed() {
            let bytes = Array(target[(block * blockSize)..<((block + 1) * blockSize)])
            if bytes != Array(session.memory[(block * blockSize)..<((block + 1) * blockSize)]) {
                items.append(.write(block: block, bytes: bytes))
            }
        }
        queue = Type5WriteQueue(items)
        state = .writing
        return writeNext()
    }

    private mutating func writeNext() -> TagStep<Void> {
        if let exchange = queue.next(session) { return exchange.step() }
        state = .finished
        return .done(())
    }

    /// The CC for a memory of `blockCount` usable blocks of `blockSize` bytes.
    /// - Throws: `.unsupported` when the memory cannot hold a CC and an empty NDEF TLV.
    static func capabilityContainer(
        blockCount: Int, blockSize: Int, session: Type5Session, information: Type5SystemInformation
    ) throws(TagEngineError) -> Type5CapabilityContainer {
        let total = blockCount * blockSize
        guard total >= 4 + 8 else {
            throw TagEngineError(
                .unsupported, "\(blockCount) blocks of \(blockSize) bytes cannot hold a capability container and an NDEF TLV")
        }
        let wide = blockCount > 0x100
        let short = (total - 4) / 8
        var features: UInt8 = 0
        let readsMultiple =
            session.multipleBlockReadWorked || information.supportsReadMultipleBlocks == true
            || session.chip.supportsReadMultipleBlocks == true
        if readsMultiple { features |= Type5CapabilityContainer.Feature.multipleBlockRead }
        if information.supportsLockBlock ?? session.chip.supportsLockBlock ?? false {
            features |= Type5CapabilityContainer.Feature.lockBlock
        }
        if session.chip.needsOptionFlagForWrites { features |= Type5CapabilityContainer.Feature.specialFrame }
        if !wide, short <= 0xFF {
            return Type5CapabilityContainer(dataAreaSize: short * 8, twoByteAddressing: false, features: features, eightBytes: false)
        }
        let long = min((total - 8) / 8, 0xFFFF)
        return Type5CapabilityContainer(dataAreaSize: long * 8, twoByteAddressing: wide, features: features, eightBytes: true)
    }
}
