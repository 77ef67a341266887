/// The card's side of ISO/IEC 14443-4 for one card, for readers that run the protocol
/// themselves and hand a virtual card raw frames: nfcpy through a virtual PN532's
/// InCommunicateThru, and nfcpy's UDP frontend.
///
/// - RATS (`E0 xx`, ISO/IEC 14443-4 §5.6.1) is answered with the ATS and starts afresh.
/// - I-blocks (§7.1.1: PCB `02`/`03`, CID and NAD when their bits say so, the chaining bit `10`)
///   are gathered into the APDU; a chained block is answered R(ACK) with its block number
///   (§7.5.3.2); the last one gives the APDU to the card, whose answer goes back in an I-block
///   of the same block number, CID echoed.
/// - An R-block (ACK or NAK) is answered with the last block again (§7.5.4, rules 11 and 12).
/// - S(DESELECT) (`C2`, §7.1.1.3) is echoed.
/// - Anything else leaves the card mute.
struct ISODEPCardSide: Sendable {
    private var chain: [UInt8] = []
    private var lastBlock: [UInt8]?

    /// What the card does with one frame.
    enum Step: Sendable, Equatable {
        /// Answer with these bytes.
        case answer([UInt8])
        /// Give this APDU to the card, then call ``ISODEPCardSide/answered(_:header:)`` with
        /// its response and this block header.
        case apdu([UInt8], header: [UInt8])
        /// Say nothing.
        case mute
    }

    /// The card's step for `frame`; `ats` is the card's ATS (nil: it has none, and RATS goes unanswered).
    mutating func receive(_ frame: [UInt8], ats: [UInt8]?) -> Step {
        guard let pcb = frame.first else { return .mute }
        if pcb == 0xE0, frame.count == 2 {
            guard let ats else { return .mute }
            chain = []
            lastBlock = nil
            return .answer(ats)
        }
        let hasCID = pcb & 0x08 != 0
        let prefix = hasCID && frame.count >= 2 ? [frame[1]] : []
        switch pcb & 0xE2 {
        case 0x02:  // I-block
            let start = 1 + (hasCID ? 1 : 0) + (pcb & 0x04 != 0 ? 1 : 0)
            guard frame.count >= start else { return .mute }
            let blockNumber = pcb & 0x01
            chain += frame[start...]
            if pcb & 0x10 != 0 {
                let ack = [0xA2 | (hasCID ? 0x08 : 0) | blockNumber] + prefix
                lastBlock = ack
                return .answer(ack)
            }
            let apdu = chain
            chain = []
            return .apdu(apdu, header: [0x02 | (hasCID ? 0x08 : 0) | blockNumber] + prefix)
        case 0xA2:  // R-block (ACK or NAK): the last block again
            guard let lastBlock else { return .mute }
            return .answer(lastBlock)
        case 0xC2 where pcb & 0x30 == 0x00:  // S(DESELECT)
            chain = []
            return .answer(frame)
        default:
            return .mute
        }
    }

    /// The I-block carrying the card's `response` to the APDU ``receive(_:ats:)`` gave out.
    mutating func answered(_ response: [UInt8], header: [UInt8]) -> [UInt8] {
        let block = header + response
        lastBlock = block
        return block
    }
}
