extension ISO15693Tag {
    /// Whether Lock Block has locked a block.
    func isLocked(_ block: Int) -> Bool {
        lockedBlocks.indices.contains(block) && lockedBlocks[block]
    }

    /// The block security status byte (ISO/IEC 15693-3:2009 §10.4.1): bit 0 = locked.
    func securityStatus(_ block: Int) -> UInt8 {
        isLocked(block) ? 0x01 : 0x00
    }

    /// The blocks a multiple-block request covers, or `nil` when its first block does not exist.
    ///
    /// The SLIX2 answers with fewer blocks when the range runs past its last block (the ICODE data
    /// sheets' remark on READ MULTIPLE BLOCKS and GET MULTIPLE BLOCK SECURITY STATUS); the
    /// ST25DV16K answers error 0x10 instead (ISO/IEC 15693-3 error code, as modelled).
    func blockRange(first: Int, count: Int) -> Range<Int>? {
        guard first < model.blockCount else { return nil }
        let end = first + count
        switch model {
        case .icodeSLIX2: return first..<min(end, model.blockCount)
        case .st25dv16k: return end <= model.blockCount ? first..<end : nil
        }
    }

    /// Read Single Block 0x20 / Extended Read Single Block 0x30 (ISO/IEC 15693-3:2009 §10.4.1,
    /// ISO/IEC 15693-3:2019); also the ST25DV's Fast Read Single Block 0xC0 / 0xC4 when `fast`.
    ///
    /// With the option flag the block security status precedes the data.
    func readSingleBlock(_ request: ISO15693Request, wide: Bool, fast: Bool = false) -> TagAnswer {
        var parameters = request.reader
        guard let number = parameters.blockNumber(wide: wide), parameters.isAtEnd else {
            return error(.notRecognized, request, fast: fast)
        }
        guard let data = block(number) else { return error(.blockNotAvailable, request, fast: fast) }
        let status = request.option ? [securityStatus(number)] : []
        return ok(status + data, request, fast: fast)
    }

    /// Read Multiple Blocks 0x23 / Extended Read Multiple Blocks 0x33 (ISO/IEC 15693-3:2019
    /// §10.4.4, ISO/IEC 15693-3:2019): first block, number of blocks − 1; with the option flag each block is
    /// preceded by its security status. Also the ST25DV's Fast Read Multiple Blocks 0xC3 / 0xC5.
    func readMultipleBlocks(_ request: ISO15693Request, wide: Bool, fast: Bool = false) -> TagAnswer {
        var parameters = request.reader
        guard let first = parameters.blockNumber(wide: wide), let countMinusOne = parameters.blockNumber(wide: wide),
            parameters.isAtEnd
        else { return error(.notRecognized, request, fast: fast) }
        guard let range = blockRange(first: first, count: countMinusOne + 1) else {
            return error(.blockNotAvailable, request, fast: fast)
        }
        var payload: [UInt8] = []
        payload.reserveCapacity(range.count * (model.blockSize + 1))
        for number in range {
            if request.option { payload.append(securityStatus(number)) }
            payload += block(number) ?? []
        }
        return ok(payload, request, fast: fast)
    }

    /// Write Single Block 0x21 / Extended Write Single Block 0x31 (ISO/IEC 15693-3:2009 §10.4.2,
    /// ISO/IEC 15693-3:2019): block number and 4 data bytes.
    ///
    /// On the SLIX2, writing `01 00 00 00` to block 79 increments the 16-bit counter in its first
    /// two bytes (least significant first) instead of storing the data (SL2S2602 data sheet, counter); the
    /// counter stops at 0xFFFF.
    mutating func writeSingleBlock(_ request: ISO15693Request, wide: Bool) -> TagAnswer {
        let failure = writeProcessing(blocks: 0, option: request.option)
        var parameters = request.reader
        guard let number = parameters.blockNumber(wide: wide), let data = parameters.bytes(model.blockSize),
            parameters.isAtEnd
        else { return error(.notRecognized, request, processing: failure) }
        guard number < model.blockCount else { return error(.blockNotAvailable, request, processing: failure) }
        guard !isLocked(number) else { return error(.lockedContent, request, processing: failure) }
        let start = number * model.blockSize
        if number == model.counterBlock, data == [0x01, 0x00, 0x00, 0x00] {
            let counter = Int(memory[start]) | Int(memory[start + 1]) << 8
            let next = min(counter + 1, 0xFFFF)
            memory[start] = UInt8(truncatingIfNeeded: next)
            memory[start + 1] = UInt8(truncatingIfNeeded: next >> 8)
        } else {
            memory.replaceSubrange(start..<(start + model.blockSize), with: data)
        }
        return ok([], request, processing: writeProcessing(blocks: 1, option: request.option), writesMemory: true)
    }

    /// Write Multiple Blocks 0x24 / Extended Write Multiple Blocks 0x34 (ISO/IEC 15693-3:2019
    /// §10.4.5, ISO/IEC 15693-3:2019): first block, number of blocks − 1, the data.
    ///
    /// The SLIX2 lacks the command (error 0x01); the ST25DV16K writes up to 4 blocks (DS10925
    /// features) and answers error 0x0F to more.
    mutating func writeMultipleBlocks(_ request: ISO15693Request, wide: Bool) -> TagAnswer {
        guard let maximum = model.maximumBlocksPerWrite else { return error(.notSupported, request) }
        let failure = writeProcessing(blocks: 0, option: request.option)
        var parameters = request.reader
        guard let first = parameters.blockNumber(wide: wide), let countMinusOne = parameters.blockNumber(wide: wide)
        else { return error(.notRecognized, request, processing: failure) }
        let count = countMinusOne + 1
        guard let data = parameters.bytes(count * model.blockSize), parameters.isAtEnd else {
            return error(.notRecognized, request, processing: failure)
        }
        guard count <= maximum else { return error(.unknown, request, processing: failure) }
        guard first + count <= model.blockCount else { return error(.blockNotAvailable, request, processing: failure) }
        guard !(first..<(first + count)).contains(where: isLocked) else {
            return error(.lockedContent, request, processing: failure)
        }
        let start = first * model.blockSize
        memory.replaceSubrange(start..<(start + data.count), with: data)
        return ok([], request, processing: writeProcessing(blocks: count, option: request.option), writesMemory: true)
    }

    /// Lock Block 0x22 / Extended Lock Block 0x32 (ISO/IEC 15693-3:2009 §10.4.3, ISO/IEC 15693-3:2019): locks a
    /// block for good. Error 0x11 when it is already locked; error 0x01 on chips without the command.
    mutating func lockBlock(_ request: ISO15693Request, wide: Bool) -> TagAnswer {
        guard model.supportsLockBlock else { return error(.notSupported, request) }
        let failure = writeProcessing(blocks: 0, option: request.option)
        var parameters = request.reader
        guard let number = parameters.blockNumber(wide: wide), parameters.isAtEnd else {
            return error(.notRecognized, request, processing: failure)
        }
        guard number < model.blockCount else { return error(.blockNotAvailable, request, processing: failure) }
        guard !isLocked(number) else { return error(.alreadyLocked, request, processing: failure) }
        lockedBlocks[number] = true
        return ok([], request, processing: writeProcessing(blocks: 1, option: request.option), writesMemory: true)
    }

    /// Get Multiple Block Security Status 0x2C / its extended form 0x3C (ISO/IEC 15693-3:2019
    /// §10.4.13, ISO/IEC 15693-3:2019): first block, number of blocks − 1; one status byte per block.
    func multipleBlockSecurityStatus(_ request: ISO15693Request, wide: Bool) -> TagAnswer {
        var parameters = request.reader
        guard let first = parameters.blockNumber(wide: wide), let countMinusOne = parameters.blockNumber(wide: wide),
            parameters.isAtEnd
        else { return error(.notRecognized, request) }
        guard let range = blockRange(first: first, count: countMinusOne + 1) else {
            return error(.blockNotAvailable, request)
        }
        return ok(range.map(securityStatus), request)
    }
}
