/// The ISO-DEP half-duplex block protocol as the air sees one APDU exchange.
///
/// ISO/IEC 14443-4:2018 §7: every block is prologue (PCB, then CID when used) + INF + CRC. A
/// command longer than FSC − prologue − 2 is chained (§7.5.2): each non-last I-block carries the
/// chaining bit and the card answers it with an R(ACK). A response longer than FSD − prologue − 2
/// is chained the same way, the reader asking for each further block with an R(ACK). When the
/// card needs longer than FWT it asks for a waiting-time extension with S(WTX) (§7.3), which the
/// reader echoes. Only the sizes are modelled; block numbers and PCB values do not change the time.
public struct ISODEPFraming: Sendable, Hashable {
    /// FSC, the largest frame the card accepts (from its ATS), CRC included.
    public var cardFrameSize: Int
    /// FSD, the largest frame the reader accepts, CRC included.
    public var readerFrameSize: Int
    /// Whether the reader put a CID byte in every block.
    public var usesCID: Bool
    /// FWT, the card's frame waiting time; processing beyond it costs S(WTX) exchanges.
    public var frameWaitingTime: Duration

    /// - Parameters:
    ///   - cardFrameSize: FSC in bytes (at least 16, ISO/IEC 14443-4 Table 2).
    ///   - readerFrameSize: FSD in bytes (at least 16).
    ///   - usesCID: whether blocks carry a CID byte.
    ///   - frameWaitingTime: FWT = 256·16/fc·2^FWI (§7.2).
    public init(cardFrameSize: Int, readerFrameSize: Int, usesCID: Bool = false, frameWaitingTime: Duration = .milliseconds(77)) {
        self.cardFrameSize = max(cardFrameSize, 16)
        self.readerFrameSize = max(readerFrameSize, 16)
        self.usesCID = usesCID
        self.frameWaitingTime = frameWaitingTime
    }

    /// PCB plus the CID byte when used.
    public var prologueLength: Int { usesCID ? 2 : 1 }

    /// The most INF bytes one I-block from the reader to the card carries (FSC − prologue − CRC).
    public var maxCommandBlockPayload: Int { cardFrameSize - prologueLength - 2 }

    /// The most INF bytes one I-block from the card to the reader carries (FSD − prologue − CRC).
    public var maxResponseBlockPayload: Int { readerFrameSize - prologueLength - 2 }

    /// How many I-blocks carry a command of `length` bytes (at least one).
    public func commandBlockCount(_ length: Int) -> Int { blocks(length, maxCommandBlockPayload) }

    /// How many I-blocks carry a response of `length` bytes (at least one).
    public func responseBlockCount(_ length: Int) -> Int { blocks(length, maxResponseBlockPayload) }

    /// The air exchanges of one APDU: chained command blocks, the card's processing (with S(WTX)
    /// when beyond FWT) after the last one, then chained response blocks.
    ///
    /// Frame sizes are payload bytes without CRC (``AirFrame/Part/bytes(_:crc:)`` adds it).
    /// - Parameters:
    ///   - commandLength: the command APDU in bytes.
    ///   - responseLength: the response APDU in bytes, SW1 SW2 included.
    ///   - processingTime: the card's time between the last command block and its answer.
    public func frames(commandLength: Int, responseLength: Int, processingTime: Duration) -> [AirFrame] {
        let prologue = prologueLength
        var frames: [AirFrame] = []
        // Command: every block but the last is acknowledged by the card's R(ACK).
        let commandChunks = chunks(max(commandLength, 0), maxCommandBlockPayload)
        for chunk in commandChunks.dropLast() {
            frames.append(AirFrame(reader: .bytes(prologue + chunk), tag: .bytes(prologue)))
        }
        var lastReader = AirFrame.Part.bytes(prologue + (commandChunks.last ?? 0))

        // Processing, stretched by waiting-time extensions when longer than FWT.
        var remaining = processingTime
        var window = frameWaitingTime
        let wtxLength = prologue + 1  // S(WTX): PCB [CID] INF(WTXM)
        while window > .zero, remaining > window {
            // The card asks for more time halfway through its current window.
            let slice = window / 2
            remaining -= slice
            let multiplier = min(59, max(1, Int((remaining / frameWaitingTime).rounded(.up))))
            frames.append(AirFrame(reader: lastReader, tag: .bytes(wtxLength), processing: slice))
            lastReader = .bytes(wtxLength)
            window = frameWaitingTime * multiplier
        }

        // Response: the first block answers the last command block; the reader fetches the rest
        // with R(ACK).
        let responseChunks = chunks(max(responseLength, 0), maxResponseBlockPayload)
        frames.append(AirFrame(reader: lastReader, tag: .bytes(prologue + (responseChunks.first ?? 0)), processing: remaining))
        for chunk in responseChunks.dropFirst() {
            frames.append(AirFrame(reader: .bytes(prologue), tag: .bytes(prologue + chunk)))
        }
        return frames
    }

    private func blocks(_ length: Int, _ payload: Int) -> Int {
        max(1, (max(length, 0) + payload - 1) / max(payload, 1))
    }

    /// Splits `length` bytes into block payloads (one empty block for zero).
    private func chunks(_ length: Int, _ payload: Int) -> [Int] {
        let size = max(payload, 1)
        guard length > size else { return [length] }
        var out: [Int] = []
        var left = length
        while left > 0 {
            out.append(min(left, size))
            left -= size
        }
        return out
    }
}
