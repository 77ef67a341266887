import NFCTransport

/// Makes a formatted Type 2 tag permanently read-only.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.4 (state change to READ-ONLY): the CC write access
/// becomes Fh first, then the dynamic lock bits (with the block-locking bits on NTAG21x and Ultralight
/// EV1) and last the static lock bits of page 2 (FFFFh), which also freeze the CC. Whatever command an
/// interruption hits, the CC already reports read-only before any page is locked, so the tag is never
/// half-locked while reported writable. Bytes already set are not written again.
public struct Type2MakeReadOnlyOperation: TagOperation {
    enum State: Sendable {
        case inspecting
        case writing(Type2PageWriter)
        case finished
    }

    private var inspection: Type2Inspection
    private var state = State.inspecting

    /// An operation for a connection.
    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        inspection = Type2Inspection(limits: limits, maximumReadLength: maximumReadLength, goal: .lock)
    }

    /// Starts the inspection: GET_VERSION (when the reader carries it), then the CC, the TLVs and the lock bytes.
    public mutating func start() throws(TagEngineError) -> TagStep<Void> {
        try inspected(inspection.start())
    }

    /// Follows the inspection, then writes the CC, dynamic lock and static lock pages that still
    /// need it; done when the last write is acknowledged.
    /// - Throws: `.notFormatted` or `.invalidCapabilityContainer` for a tag without a valid CC,
    ///   `.unsupported` when the dynamic lock bytes cannot be located, `.unexpectedResponse` after it
    ///   finished.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Void> {
        switch state {
        case .inspecting:
            return try inspected(inspection.resume(with: outcome))
        case .writing(var writer):
            let step = try writer.resume(with: outcome)
            state = .writing(writer)
            if case .done = step { state = .finished }
            return step
        case .finished:
            throw TagEngineError(.unexpectedResponse, "make-read-only resumed after it finished")
        }
    }

    private mutating func inspected(_ step: TagStep<Type2Snapshot>) throws(TagEngineError) -> TagStep<Void> {
        if let next: TagStep<Void> = Type2Step.forward(step) { return next }
        guard case .done(let snapshot) = step else { throw TagEngineError(.unexpectedResponse, "inspection ended without a result") }
        var writer = Type2PageWriter(try Self.writes(snapshot))
        let first = writer.start()
        state = .writing(writer)
        if case .done = first { state = .finished }
        return first
    }

    /// The writes in their safe order: CC, dynamic lock pages, static lock page.
    static func writes(_ snapshot: Type2Snapshot) throws(TagEngineError) -> [Type2PageWrite] {
        let (cc, _) = try snapshot.ndefArea()
        guard let dynamicLocks = snapshot.dynamicLocks else {
            let why =
                if case .notAsked(let reader) = snapshot.versionAnswer {
                    "\(reader) cannot send GET_VERSION (it carries READ and WRITE only)"
                } else {
                    "no model from GET_VERSION"
                }
            throw TagEngineError(
                .unsupported,
                "the dynamic lock bytes of this \(cc.dataAreaSize)-byte data area cannot be located: no Lock Control TLV and \(why)")
        }
        let memory = snapshot.memory
        func page(_ number: Int) throws(TagEngineError) -> [UInt8] {
            guard let bytes = memory.page(number) else {
                throw TagEngineError(.unexpectedResponse, "page \(Type2Command.hex(number)) was not read before locking")
            }
            return bytes
        }
        var writes: [Type2PageWrite] = []
        var ccPage = cc.bytes
        ccPage[3] |= 0x0F
        if ccPage != cc.bytes { writes.append(Type2PageWrite(page: 3, bytes: ccPage)) }

        var lockValues: [Int: UInt8] = [:]
        for area in dynamicLocks {
            lockValues.merge(area.lockedValues) { $0 | $1 }
        }
        for number in Set(lockValues.keys.map { $0 / 4 }).sorted() {
            let current = try page(number)
            var locked = current
            for index in 0..<4 { locked[index] |= lockValues[number * 4 + index] ?? 0 }
            if locked != current { writes.append(Type2PageWrite(page: number, bytes: locked)) }
        }

        let page2 = try page(2)
        let lockedStatic = Type2LockBits.lockedStaticPage(page2)
        if lockedStatic != page2 { writes.append(Type2PageWrite(page: 2, bytes: lockedStatic)) }
        return writes
    }
}
