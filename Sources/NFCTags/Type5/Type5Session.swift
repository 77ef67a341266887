import NFCTransport

/// One frame to send and how long to wait for its answer.
struct Type5Exchange: Sendable, Hashable {
    var frame: [UInt8]
    var timeout: Duration

    /// The step that sends it.
    func step<Output>() -> TagStep<Output> { .transceive(frame, timeout: timeout) }
}

/// What an operation knows about the tag it talks to: addressing, block geometry, which read
/// commands it takes, and the memory read so far (a prefix from block 0 with each block's lock
/// state when it was read with the option flag).
///
/// The read logic (``Type5Session+Reading``) chooses the fewest, largest reads the tag, the
/// reader (`ExchangeLimits`) and the caller's cap allow, and shrinks them when the tag refuses.
struct Type5Session: Sendable {
    /// The UID least significant byte first, as requests carry it.
    let wireUID: [UInt8]
    let chip: Type5Chip
    let limits: ExchangeLimits
    /// The caller's cap on blocks per read (`Type5Engine(maximumBlocksPerRead:)`).
    let maximumBlocksPerRead: Int?
    /// What this and earlier operations learned about multi-block reads.
    var learning: Type5ReadLearning

    /// Bytes per block, once a read answered.
    var blockSize: Int?
    /// Use the extended commands (16-bit block numbers) for every block: the CC's magic is `E2`.
    var extendedCommands = false
    /// Whether Read Multiple Blocks may be used: `nil` until the CC says (a first read tries it).
    var multipleBlockRead: Bool?
    /// Whether a Read Multiple Blocks of more than one block has succeeded.
    var multipleBlockReadWorked = false
    /// Writes and locks carry the option flag (the CC's special frame, or a chip that needs it).
    var writeOption = false

    /// The tag's bytes from block 0, as far as read.
    var memory: [UInt8] = []
    /// Per block of ``memory``: locked (security status bit 0), or `nil` when read without status.
    var locked: [Bool?] = []

    // Read progress (see Type5Session+Reading.swift).
    var readTarget = 0
    var readAheadTarget = 0
    var readWithStatus = false
    var pendingRead: PendingRead?
    var transmissionRetries = 0

    /// A read on the air.
    struct PendingRead: Sendable, Hashable {
        var first: Int
        var count: Int
        var single: Bool
        var wide: Bool
        var withStatus: Bool
    }

    /// Blocks a first read asks for before the block size is known: enough for an 8-byte CC and a
    /// 4-byte TLV header with 4-byte blocks, and within the memory of any T5T.
    static let probeBlocks = 4
    /// How far beyond what the TLV walk needs the detection reads ahead, in bytes.
    static let readAhead = 16

    /// A session with a tag.
    /// - Throws: `.unsupported` when the target is not an ISO/IEC 15693 tag with an 8-byte UID.
    init(target: TargetInfo, limits: ExchangeLimits, maximumBlocksPerRead: Int?, learning: Type5ReadLearning) throws(TagEngineError) {
        guard case .iso15693 = target.parameters, target.identifier.count == 8 else {
            throw TagEngineError(.unsupported, "\(target) is not an ISO/IEC 15693 tag with an 8-byte UID")
        }
        wireUID = target.identifier.reversed()
        chip = Type5Chip(uid: target.identifier)
        self.limits = limits
        self.maximumBlocksPerRead = maximumBlocksPerRead
        self.learning = learning
        writeOption = chip.needsOptionFlagForWrites
    }

    /// Adopts what a capability container says about commands (T5T 1.0 §4.3).
    mutating func adopt(_ cc: Type5CapabilityContainer) {
        extendedCommands = cc.twoByteAddressing
        multipleBlockRead = cc.multipleBlockRead
        writeOption = cc.specialFrame || chip.needsOptionFlagForWrites
    }

    /// The number of whole blocks in ``memory``.
    var blocksRead: Int {
        guard let blockSize, blockSize > 0 else { return 0 }
        return memory.count / blockSize
    }

    /// Whether a block was read with its security status and found locked.
    func isLocked(_ block: Int) -> Bool {
        locked.indices.contains(block) && locked[block] == true
    }

    /// The block holding a byte offset.
    func block(containing offset: Int) -> Int {
        guard let blockSize, blockSize > 0 else { return 0 }
        return offset / blockSize
    }

    // MARK: Writes and locks

    /// Whether a block number needs the extended command form.
    func needsWideAddress(_ block: Int) -> Bool { extendedCommands || block > 0xFF }

    /// Write Single Block 0x21 / Extended Write Single Block 0x31 (ISO/IEC 15693-3 §10.4.2).
    func writeRequest(block: Int, data: [UInt8]) -> Type5Exchange {
        let wide = needsWideAddress(block)
        let code = wide ? Type5Frame.Code.extendedWriteSingleBlock : Type5Frame.Code.writeSingleBlock
        let frame = Type5Frame.request(
            code, wireUID: wireUID, option: writeOption, parameters: Type5Frame.blockNumber(block, wide: wide) + data)
        return Type5Exchange(frame: frame, timeout: Self.writeTimeout)
    }

    /// Lock Block 0x22 / Extended Lock Block 0x32 (ISO/IEC 15693-3 §10.4.3).
    func lockRequest(block: Int) -> Type5Exchange {
        let wide = needsWideAddress(block)
        let code = wide ? Type5Frame.Code.extendedLockBlock : Type5Frame.Code.lockBlock
        let frame = Type5Frame.request(code, wireUID: wireUID, option: writeOption, parameters: Type5Frame.blockNumber(block, wide: wide))
        return Type5Exchange(frame: frame, timeout: Self.writeTimeout)
    }

    /// How long a write or lock may take: the tag answers within 20 ms of the request, or after
    /// the reader's EOF sent 20 ms later with the option flag (ISO/IEC 15693-3 §10.4.2); with margin.
    static let writeTimeout: Duration = .milliseconds(60)

    /// How long to wait for a read's answer: the tag starts within t1 (≈ 320 µs) but a long
    /// answer takes ≈ 0.3 ms a byte on the air, which some drivers count.
    static func readTimeout(answerBytes: Int) -> Duration {
        .milliseconds(20) + .microseconds(400 * answerBytes)
    }
}
