import NFCTransport

/// Reading blocks: the largest Read Multiple Blocks the tag and reader allow, shrunk when refused.
///
/// ISO/IEC 15693-3 §10.4.1 (Read Single Block 0x20) and §10.4.4 (Read Multiple Blocks 0x23: first
/// block, number of blocks − 1), and the extended forms 0x30 / 0x33 of ISO/IEC 15693-3:2019 with
/// 16-bit block numbers and counts. With the option flag each block comes after its security
/// status byte (bit 0: locked).
extension Type5Session {
    /// Asks for the memory to reach byte offset `end` (exclusive); ``nextRead()`` then says what to send.
    /// - Parameter readAhead: an offset the same commands may reach too when they carry several
    ///   blocks anyway (it never adds a command).
    mutating func requestRead(upTo end: Int, readAhead: Int? = nil, withStatus: Bool) {
        readTarget = max(readTarget, end)
        readAheadTarget = max(readTarget, readAhead ?? end)
        readWithStatus = withStatus
    }

    /// The next read to send, or `nil` when ``memory`` reaches the requested offset.
    /// - Throws: `.unsupported` when the reader's answer buffer cannot carry one block.
    mutating func nextRead() throws(TagEngineError) -> Type5Exchange? {
        guard memory.count < readTarget else { return nil }
        let singleOnly = multipleBlockRead == false || learning.singleBlockOnly || maximumBlocksPerRead == 1
        guard let blockSize else {
            // The block size is unknown: ask for a few blocks and learn it from the answer's length.
            var count = min(Self.probeBlocks, learning.maximumBlocks ?? Self.probeBlocks)
            if singleOnly || limits.maxResponseLength < 1 + count * 5 { count = 1 }
            if case .readAndWriteOnly(let length) = limits.nativeCommands, length < 16 { count = 1 }
            return send(PendingRead(first: 0, count: count, single: count == 1, wide: false, withStatus: readWithStatus))
        }
        let first = memory.count / blockSize
        let wanted = (readAheadTarget + blockSize - 1) / blockSize - first
        let perBlock = blockSize + (readWithStatus ? 1 : 0)
        var count = min(wanted, (limits.maxResponseLength - 1) / perBlock)
        if case .readAndWriteOnly(let length) = limits.nativeCommands { count = min(count, length / blockSize) }
        guard count >= 1 else {
            throw TagEngineError(
                .unsupported, "\(limits.readerPhrase) carries \(limits.maxResponseLength)-byte answers: not one \(blockSize)-byte block")
        }
        let wide = extendedCommands || first > 0xFF
        count = min(count, wide ? 0x10000 : 0x100 - first)
        if let cap = maximumBlocksPerRead { count = min(count, max(1, cap)) }
        if let cap = learning.maximumBlocks { count = min(count, max(1, cap)) }
        if let cap = chip.readCap { count = min(count, cap.sectorAligned ? cap.blocks - first % cap.blocks : cap.blocks) }
        if singleOnly { count = 1 }
        return send(PendingRead(first: first, count: count, single: count == 1, wide: wide, withStatus: readWithStatus))
    }

    /// The read a sub-machine just asked for; it must not be empty.
    mutating func continueReading<Output>() throws(TagEngineError) -> TagStep<Output> {
        guard let exchange = try nextRead() else {
            throw TagEngineError(.unexpectedResponse, "Type 5 read stalled at byte \(memory.count) of \(readTarget)")
        }
        return exchange.step()
    }

    private mutating func send(_ read: PendingRead) -> Type5Exchange {
        pendingRead = read
        let code: UInt8
        var parameters = Type5Frame.blockNumber(read.first, wide: read.wide)
        if read.single {
            code = read.wide ? Type5Frame.Code.extendedReadSingleBlock : Type5Frame.Code.readSingleBlock
        } else {
            code = read.wide ? Type5Frame.Code.extendedReadMultipleBlocks : Type5Frame.Code.readMultipleBlocks
            parameters += Type5Frame.blockNumber(read.count - 1, wide: read.wide)
        }
        let frame = Type5Frame.request(code, wireUID: wireUID, option: read.withStatus, parameters: parameters)
        let perBlock = (blockSize ?? 32) + (read.withStatus ? 1 : 0)
        return Type5Exchange(frame: frame, timeout: Self.readTimeout(answerBytes: 1 + read.count * perBlock))
    }

    /// Takes the answer to the pending read into ``memory``, or learns from a refusal so that
    /// ``nextRead()`` asks for less.
    /// - Throws: the tag's error when even a single block is refused (or a block does not exist);
    ///   transport failures, except a damaged answer (asked again, twice) and a multi-block answer
    ///   that timed out or was too long for the reader (asked again for fewer blocks).
    mutating func absorbRead(_ outcome: Result<[UInt8], TransportError>) throws(TagEngineError) {
        guard let read = pendingRead else {
            throw TagEngineError(.unexpectedResponse, "an answer arrived with no read pending")
        }
        pendingRead = nil
        let name =
            (read.single ? "Read Single Block " : "Read Multiple Blocks ") + Type5Frame.describe(blocks: read.first, count: read.count)
        let answer: [UInt8]
        switch outcome {
        case .success(let bytes):
            answer = bytes
        case .failure(let error):
            if error.code == .transmission, transmissionRetries < 2 {
                transmissionRetries += 1
                return
            }
            if error.code == .frameTooLong || error.code == .timeout, shrink(after: read) { return }
            throw TagEngineError(transport: error)
        }
        transmissionRetries = 0
        let payload: ArraySlice<UInt8>
        do {
            payload = try Type5Frame.payload(of: answer, for: name)
        } catch {
            // A tag that does not know the command, or takes fewer blocks, answers 01, 02, 03 or
            // 0F; "block not available" (10) only means fewer blocks while the size is unknown.
            let code = Type5Frame.errorCode(of: error)
            if let code, code != Type5Frame.ErrorCode.blockNotAvailable || blockSize == nil, shrink(after: read) { return }
            throw error
        }
        try store(payload, of: read, name: name)
    }

    /// Reads less next time after a multi-block read failed; `false` when there is nothing to shrink.
    private mutating func shrink(after read: PendingRead) -> Bool {
        if read.count > 1 {
            learning.maximumBlocks = read.count / 2
            return true
        }
        if !read.single {
            learning.singleBlockOnly = true
            return true
        }
        return false
    }

    private mutating func store(_ payload: ArraySlice<UInt8>, of read: PendingRead, name: String) throws(TagEngineError) {
        let status = read.withStatus ? 1 : 0
        let size: Int
        if let blockSize {
            size = blockSize
        } else {
            guard payload.count % read.count == 0, payload.count / read.count > status else {
                throw TagEngineError(.unexpectedResponse, "\(name) answered \(payload.count) bytes, not \(read.count) equal blocks")
            }
            size = payload.count / read.count - status
            guard (1...32).contains(size) else {
                throw TagEngineError(.unexpectedResponse, "\(name) answered \(size)-byte blocks; ISO/IEC 15693 blocks hold 1 to 32 bytes")
            }
            blockSize = size
        }
        let perBlock = size + status
        let blocks = payload.count / perBlock
        guard payload.count % perBlock == 0, blocks >= 1, blocks <= read.count else {
            throw TagEngineError(
                .unexpectedResponse,
                "\(name) answered \(payload.count) bytes, not \(read.count) block\(read.count == 1 ? "" : "s") of \(perBlock) bytes")
        }
        if !read.single, read.count > 1 { multipleBlockReadWorked = true }
        var index = payload.startIndex
        for _ in 0..<blocks {
            if read.withStatus {
                locked.append(payload[index] & 0x01 != 0)
                index += 1
            } else {
                locked.append(nil)
            }
            memory += payload[index..<(index + size)]
            index += size
        }
    }
}
