import NFCTransport

/// What NDEF detection found on a FeliCa card.
struct Type3Detection: Sendable {
    /// The link, addressing the NDEF system's IDm when Polling `12FC` found one.
    var link: Type3Link
    /// Why there is no NDEF system (`nil` when the card answers for `12FC`).
    var missingSystem: String?
    /// The attribute block, or why it is not valid (`.notFormatted` without an NDEF system).
    var attribute: Result<Type3AttributeInformation, TagEngineError>
    /// The MC block of a FeliCa Lite or Lite-S.
    var memoryConfiguration: FeliCaLiteMemoryConfiguration?
    /// Every block read so far: block 0, the MC block, data blocks read ahead.
    var blocks: [UInt16: [UInt8]]

    /// The valid attribute block of an NDEF system.
    /// - Throws: `.notFormatted` without an NDEF system; the attribute block's own error when it
    ///   is not valid.
    func requireNDEF() throws(TagEngineError) -> Type3AttributeInformation {
        if let missingSystem { throw TagEngineError(.notFormatted, missingSystem) }
        return try attribute.get()
    }

    /// Whether the tag accepts NDEF writes: RWFlag `01` and, on FeliCa Lite/Lite-S, S_PAD0 up to
    /// the last NDEF block writable in MC.
    func isWritable(_ attribute: Type3AttributeInformation) -> Bool {
        guard attribute.isWritable else { return false }
        guard let memoryConfiguration else { return true }
        let last = min(Int(attribute.maximumBlocks), FeliCaLiteMemoryConfiguration.userBlockCount - 1)
        return memoryConfiguration.userBlocksWritable(0...last)
    }

    /// The status as Core NFC reports it: no NDEF system or an invalid attribute block is
    /// `notSupported`; RWFlag `00` (or MC locks on Lite-S) `readOnly`; capacity Nmaxb × 16. While
    /// WriteF says a write is in progress the message length is reported as 0 (no consistent
    /// message).
    var status: NDEFStatus {
        guard let attribute = try? requireNDEF() else { return .notSupported }
        return NDEFStatus(
            state: isWritable(attribute) ? .readWrite : .readOnly, capacity: attribute.capacity,
            messageLength: attribute.isWriteInProgress ? 0 : attribute.length
        )
    }
}

/// NDEF detection (the T3T NDEF detection procedure): find the NDEF system and read its
/// attribute block, with optional read-ahead of the first data blocks in the same command.
///
/// - A card the reader activated with system code `12FC` is addressed by its IDm as is.
/// - FeliCa Lite and Lite-S have one IDm for every system code and answer `12FC` exactly when MC
///   SYS_OP is `01` (FeliCa Lite-S User's Manual §3.3.13); the engine reads MC along with block 0
///   instead of polling, saving the Polling exchange (≈ 4 ms of the ≈ 18 ms a full read takes).
/// - Any other card is polled for `12FC` (request code `01`); a FeliCa Standard card answers with
///   the NDEF system's own IDm, used from then on. No answer means no NDEF system. A reader that
///   cannot send Polling (PC/SC pseudo-APDUs) keeps the activation IDm.
struct Type3Detector: TagOperation {
    typealias Output = Type3Detection

    enum State: Sendable {
        case idle
        case polling
        case reading(Type3BlockReader)
        case finished
    }

    private(set) var link: Type3Link
    /// Data blocks (from block 1) the caller will want: read along with block 0 when they fit.
    let readAhead: Int
    private(set) var state = State.idle

    init(link: Type3Link, readAhead: Int = 0) {
        self.link = link
        self.readAhead = max(0, readAhead)
    }

    mutating func start() throws(TagEngineError) -> TagStep<Type3Detection> {
        if link.activatedSystemCode == FeliCaCommand.ndefSystemCode || link.ic.isLite {
            return try readAttributeBlock()
        }
        state = .polling
        return .transceive(FeliCaCommand.polling(systemCode: FeliCaCommand.ndefSystemCode), timeout: FeliCaResponseTime.polling)
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Type3Detection> {
        switch state {
        case .idle, .finished:
            throw TagEngineError(.unexpectedResponse, "Type 3 detection resumed out of turn")
        case .polling:
            switch outcome {
            case .failure(let error) where error.code == .timeout:
                state = .finished
                return .done(absent("the card does not answer Polling for the NDEF system code 12FC"))
            case .failure(let error) where error.code == .unsupportedCommand:
                return try readAttributeBlock()
            case .failure(let error):
                throw TagEngineError(transport: error)
            case .success(let answer):
                let polling = try FeliCaResponse.polling(answer)
                if let code = polling.systemCode, code != FeliCaCommand.ndefSystemCode {
                    throw TagEngineError(
                        .unexpectedResponse, "Polling for 12FC answered for system code \(String(code, radix: 16, uppercase: true))")
                }
                link.idm = polling.idm
                return try readAttributeBlock()
            }
        case .reading(var reader):
            try reader.accept(outcome)
            if let next = reader.next() {
                state = .reading(reader)
                return .transceive(next.frame, timeout: next.timeout)
            }
            state = .finished
            return .done(evaluate(reader.blocks))
        }
    }

    /// Reads block 0 (and MC on Lite chips) with as many read-ahead data blocks as fit in the
    /// first command.
    private mutating func readAttributeBlock() throws(TagEngineError) -> TagStep<Type3Detection> {
        let mc: [UInt16] = link.ic.isLite ? [FeliCaLiteMemoryConfiguration.blockNumber] : []
        // MC shares the first command unless commands must name consecutive blocks.
        let sharing = link.requiresContiguousBlocks ? 0 : mc.count
        let ahead = min(readAhead, max(0, link.readBlocksPerCommand(nbr: nil) - 1 - sharing))
        let blocks = [0] + (0..<ahead).map { UInt16($0 + 1) } + mc
        var reader = Type3BlockReader(link: link, batches: try link.readBatches(blocks, nbr: nil))
        guard let next = reader.next() else {
            throw TagEngineError(.unsupported, "no read command for the attribute block")
        }
        state = .reading(reader)
        return .transceive(next.frame, timeout: next.timeout)
    }

    private func evaluate(_ blocks: [UInt16: [UInt8]]) -> Type3Detection {
        let mc = blocks[FeliCaLiteMemoryConfiguration.blockNumber].flatMap(FeliCaLiteMemoryConfiguration.init)
        var attribute = Result { () throws(TagEngineError) in try Type3AttributeInformation(validating: blocks[0] ?? []) }
        if link.ic.isLite, case .success(let parsed) = attribute,
            Int(parsed.maximumBlocks) >= FeliCaLiteMemoryConfiguration.userBlockCount
        {
            attribute = .failure(
                TagEngineError(
                    .invalidCapabilityContainer,
                    "Type 3 attribute block: Nmaxb (bytes 3–4) is \(parsed.maximumBlocks), but a \(link.ic.model) has 13 data blocks after S_PAD0"
                )
            )
        }
        var missing: String?
        if link.ic.isLite, mc?.ndefEnabled != true {
            missing = "MC SYS_OP (block 0x88 byte 3) is not 01: the card does not answer for the NDEF system code 12FC"
        }
        return Type3Detection(link: link, missingSystem: missing, attribute: attribute, memoryConfiguration: mc, blocks: blocks)
    }

    private func absent(_ reason: String) -> Type3Detection {
        Type3Detection(
            link: link, missingSystem: reason, attribute: .failure(TagEngineError(.notFormatted, reason)),
            memoryConfiguration: nil, blocks: [:]
        )
    }
}
