import NFCTransport

/// Makes a Type 3 Tag read-only.
///
/// 1. The attribute block with RWFlag = `00` and its new checksum (T3T 1.0 §6.2): every NFC
///    Forum reader/writer then treats the NDEF as read-only.
/// 2. On FeliCa Lite and Lite-S, the MC block (FeliCa Lite-S User's Manual §3.3.13): the
///    S_PAD0–13 bits of MC_SP_REG_ALL_RW cleared, so the chip itself refuses writes; bit 15
///    cleared, so that cannot be undone; MC_ALL = `00`, so SYS_OP (`12FC`) and the system blocks
///    stay as they are. REG keeps its bit (it is not NDEF memory).
///
/// Cut between the two, the attribute block already says read-only and running the operation
/// again finishes the MC lock; each step is skipped when already done.
///
/// On a FeliCa Standard card only step 1 is possible: making service `0009` read-only means
/// changing the service's attribute, which needs the card issuer's keys. The NDEF reads as
/// read-only everywhere, but a raw Write Without Encryption to `0009` would still succeed.
/// The ``Type3PlannedWriteOperation`` that makes a card read-only.
typealias Type3MakeReadOnlyOperation = Type3PlannedWriteOperation<Type3MakeReadOnlyPlanner>

extension Type3PlannedWriteOperation where Planner == Type3MakeReadOnlyPlanner {
    init(link: Type3Link) { self.init(link: link, planner: Type3MakeReadOnlyPlanner()) }
}

struct Type3MakeReadOnlyPlanner: Type3WritePlanner {
    static var operationName: String { "make-read-only" }

    /// The writes that lock the tag, in order.
    func plan(_ detection: Type3Detection) throws(TagEngineError) -> [[Type3BlockWrite]] {
        let attribute = try detection.requireNDEF()
        var locked = attribute
        locked.readWriteFlag = Type3AttributeInformation.readOnly
        guard let mc = detection.memoryConfiguration else {
            return attribute.isWritable ? [try detection.link.singleWrite(0, locked.block)] : []
        }
        var writes: [[Type3BlockWrite]] = []
        if !mc.userBlocksLocked, !mc.permissionsChangeable {
            throw TagEngineError(
                .unsupported, "MC bytes 0–1 are frozen with writable S_PADs: the blocks can no longer be made read-only"
            )
        }
        if attribute.isWritable, mc.userBlockWritable(0) {
            writes.append(try detection.link.singleWrite(0, locked.block))
        }
        let target = mc.lockingUserBlocks
        if !mc.userBlocksLocked || (mc.systemBlocksWritable && target != mc.bytes) {
            writes.append(try detection.link.singleWrite(FeliCaLiteMemoryConfiguration.blockNumber, target))
        }
        return writes
    }
}
