/// The card's side of ISO/IEC 14443-4 for one card, for readers that run the protocol
/// themselves and hand a virtual card raw frames: nfcpy through a virtual PN532's
/// InCommunicateThru, and nfcpy's UDP frontend.
///
/// - RATS (`E0 xx`, ISO/IEC 14443-4 §5.6.1) is answered with the ATS and starts afresh; its
///   parameter byte's high nibble, FSDI, sets the largest frame the reader takes (FSD, §5.6.1.1).
///   A type B card learns FSDI from ATTRIB's Param 2 instead (ISO/IEC 14443-3 §7.10.4):
///   ``init(frameSizeCode:)``.
/// - Block numbers follow §7.5.3: the card's starts at 1 and toggles on every I-block received
///   and on every R(ACK) that does not carry it.
/// - I-blocks (§7.1.1: PCB `02`/`03`, CID and NAD when their bits say so, the chaining bit `10`)
///   are gathered into the APDU; a chained block is answered R(ACK) (§7.5.4, rule 10); the last
///   one gives the APDU to the card.
/// - The card's response goes back in I-blocks, CID echoed. A response longer than FSD allows
///   is chained (§7.5.2): each block but the last has the chaining bit, and the reader's
///   R(ACK) with the other block number asks for the next (rule 13).
/// - An R(ACK) or R(NAK) with the card's block number is answered with the last block again
///   (rule 11); an R(NAK) with the other number is answered R(ACK) (rule 12).
/// - S(DESELECT) (`C2`, §7.1.1.3) is echoed.
/// - Anything else leaves the card mute.
struct ISODEPCardSide: Sendable {
    private var chain: [UInt8] = []
    private var lastBlock: [UInt8]?
    /// The card's block number (§7.5.3.1, rule C: 1 at activation).
    private var blockNumber: UInt8 = 1
    /// The response bytes still to send, while the card chains its answer.
    private var pendingResponse: ArraySlice<UInt8> = []
    /// The CID byte the reader's blocks carry, echoed in the card's.
    private var cidPrefix: [UInt8] = []
    /// FSD: the largest frame the reader takes, EDC included.
    private(set) var readerFrameSize: Int

    /// A card side for a reader whose frame size code is `frameSizeCode` (FSDI; 8, 256 bytes,
    /// until RATS says otherwise).
    init(frameSizeCode: UInt8 = 8) {
        readerFrameSize = Self.frameSize(code: frameSizeCode)
    }

    /// FSD for FSDI `code` (ISO/IEC 14443-4:2008 §5.2.1 Table 1; a code above 8 is taken as 8).
    static func frameSize(code: UInt8) -> Int {
        let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
        return sizes[Int(min(code, 8))]
    }

    /// What the card does with one frame.
    enum Step: Sendable, Equatable {
        /// Answer with these bytes.
        case answer([UInt8])
        /// Give this APDU to the card, then call ``ISODEPCardSide/answered(_:)`` with its response.
        case apdu([UInt8])
        /// Say nothing.
        case mute
    }

    /// The card's step for `frame`; `ats` is the card's ATS (nil: it has none, and RATS goes unanswered).
    mutating func receive(_ frame: [UInt8], ats: [UInt8]?) -> Step {
        guard let pcb = frame.first else { return .mute }
        if pcb == 0xE0, frame.count == 2 {
            guard let ats else { return .mute }
            self = ISODEPCardSide(frameSizeCode: frame[1] >> 4)
            return .answer(ats)
        }
        let hasCID = pcb & 0x08 != 0
        if hasCID, frame.count < 2 { return .mute }
        cidPrefix = hasCID ? [frame[1]] : []
        let received = pcb & 0x01
        switch pcb & 0xE2 {
        case 0x02:  // I-block
            let start = 1 + (hasCID ? 1 : 0) + (pcb & 0x04 != 0 ? 1 : 0)
            guard frame.count >= start else { return .mute }
            blockNumber ^= 1  // rule D: toggled on every I-block
            pendingResponse = []
            chain += frame[start...]
            if pcb & 0x10 != 0 { return .answer(send(pcb: 0xA2)) }
            let apdu = chain
            chain = []
            return .apdu(apdu)
        case 0xA2 where received == blockNumber:  // rule 11: the last block again
            guard let lastBlock else { return .mute }
            return .answer(lastBlock)
        case 0xA2 where pcb & 0x10 != 0:  // rule 12: R(NAK) with the other number
            return .answer(send(pcb: 0xA2))
        case 0xA2:  // rule 13: R(ACK) with the other number continues the card's chain
            guard !pendingResponse.isEmpty else { return .mute }
            blockNumber ^= 1  // rule E
            return .answer(nextResponseBlock())
        case 0xC2 where pcb & 0x30 == 0x00:  // S(DESELECT)
            chain = []
            pendingResponse = []
            return .answer(frame)
        default:
            return .mute
        }
    }

    /// The first I-block carrying the card's `response` to the APDU ``receive(_:ats:)`` gave out;
    /// the rest follows on the reader's R(ACK)s when it does not fit one frame.
    mutating func answered(_ response: [UInt8]) -> [UInt8] {
        pendingResponse = response[...]
        return nextResponseBlock()
    }

    /// The next I-block of the pending response: as much as FSD leaves room for after the
    /// prologue and the two EDC bytes, with the chaining bit while more remains.
    private mutating func nextResponseBlock() -> [UInt8] {
        let room = max(1, readerFrameSize - 3 - cidPrefix.count)
        let part = pendingResponse.prefix(room)
        pendingResponse = pendingResponse.dropFirst(part.count)
        let chaining: UInt8 = pendingResponse.isEmpty ? 0 : 0x10
        return send(pcb: 0x02 | chaining, information: part)
    }

    /// A block with `pcb`, the CID bit and the card's block number, remembered for a resend.
    private mutating func send(pcb: UInt8, information: ArraySlice<UInt8> = []) -> [UInt8] {
        let block = [pcb | (cidPrefix.isEmpty ? 0 : 0x08) | blockNumber] + cidPrefix + information
        lastBlock = block
        return block
    }
}
