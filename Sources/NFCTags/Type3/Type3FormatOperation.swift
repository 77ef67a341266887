import NFCTransport

/// Formats a blank FeliCa Lite or Lite-S as an NFC Forum Type 3 Tag with an empty message.
///
/// FeliCa Lite-S User's Manual §3.3.13 and T3T 1.0 §6.2: SYS_OP = `01` in MC makes the card
/// answer Polling for `12FC`, and S_PAD0 becomes the attribute block (Ver `10`, Nbr 4, Nbw 1 —
/// the chip's limits — Nmaxb the writable data blocks after S_PAD0, 13 on a fresh card, RWFlag
/// `01`, Ln 0). MC goes first: cut between the two writes, the card answers `12FC` with no valid
/// attribute block, reads as not formatted, and formatting again completes it. Data blocks are
/// left as they are.
///
/// - `.alreadyFormatted` when the card answers `12FC` with a valid attribute block. A valid
///   attribute block with SYS_OP `00` only gets SYS_OP set.
/// - `.unsupported` on other chips: a FeliCa Standard card without the `12FC` system needs the
///   issuer's keys to create a system; a `12FC` system with an invalid attribute block does not
///   say how many blocks its service holds.
/// - `.readOnly` when MC makes S_PAD0 read-only; `.unsupported` when SYS_OP must change and MC_ALL
///   has locked MC bytes 2–5.
/// The ``Type3PlannedWriteOperation`` that formats a card.
typealias Type3FormatOperation = Type3PlannedWriteOperation<Type3FormatPlanner>

extension Type3PlannedWriteOperation where Planner == Type3FormatPlanner {
    init(link: Type3Link) { self.init(link: link, planner: Type3FormatPlanner()) }
}

struct Type3FormatPlanner: Type3WritePlanner {
    static var operationName: String { "format" }

    /// The writes that format the card, in order.
    func plan(_ detection: Type3Detection) throws(TagEngineError) -> [[Type3BlockWrite]] {
        let valid = (try? detection.attribute.get()) != nil
        guard detection.link.ic.isLite, let mc = detection.memoryConfiguration else {
            if detection.missingSystem == nil, valid {
                throw TagEngineError(.alreadyFormatted, "the NDEF system 12FC has a valid attribute block")
            }
            if detection.missingSystem != nil {
                throw TagEngineError(
                    .unsupported,
                    "\(detection.link.ic.model) has no NDEF system 12FC; creating one needs the card issuer's keys"
                )
            }
            throw TagEngineError(
                .unsupported, "the NDEF system's attribute block is invalid and its service size is unknown; it cannot be formatted here"
            )
        }
        if mc.ndefEnabled, valid {
            throw TagEngineError(.alreadyFormatted, "SYS_OP is 01 and S_PAD0 holds a valid attribute block")
        }
        var writes: [[Type3BlockWrite]] = []
        if !mc.ndefEnabled {
            guard mc.systemBlocksWritable else {
                throw TagEngineError(.unsupported, "MC_ALL (MC byte 2) is 00: SYS_OP can no longer be set to 01")
            }
            writes.append(try detection.link.singleWrite(FeliCaLiteMemoryConfiguration.blockNumber, mc.enablingNDEF))
        }
        if !valid {
            guard mc.userBlockWritable(0) else {
                throw TagEngineError(.readOnly, "MC makes S_PAD0 read-only: no attribute block can be written")
            }
            let attribute = Type3AttributeInformation(
                blocksPerRead: 4, blocksPerWrite: 1, maximumBlocks: UInt16(mc.consecutiveWritableDataBlocks)
            )
            writes.append(try detection.link.singleWrite(0, attribute.block))
        }
        return writes
    }
}
