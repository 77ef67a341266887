import NFCTransport

/// Writes an NDEF message to a Type 2 tag, tearing-safe, skipping pages that already hold the bytes.
///
/// Reads what the write touches (`Type2Inspection` with the message length), refuses a read-only
/// tag (CC write access, static or dynamic lock bits) and a message that does not fit, then sends
/// the writes `Type2WritePlanner` orders. NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.3.
public struct Type2WriteNDEFOperation: TagOperation {
    enum State: Sendable {
        case inspecting
        case writing(Type2PageWriter)
        case finished
    }

    private let message: [UInt8]
    private var inspection: Type2Inspection
    private var state = State.inspecting

    /// - Parameters:
    ///   - message: the encoded NDEF message (empty to leave an empty NDEF TLV).
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(message: [UInt8], limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        self.message = message
        inspection = Type2Inspection(limits: limits, maximumReadLength: maximumReadLength, goal: .write(messageLength: message.count))
    }

    /// Starts the inspection of what the write touches: GET_VERSION (when the reader carries it), then pages 2–5.
    public mutating func start() throws(TagEngineError) -> TagStep<Void> {
        try inspected(inspection.start())
    }

    /// Follows the inspection, then sends the planned page writes; done when the last is acknowledged.
    /// - Throws: `.readOnly`, `.capacityExceeded`, `.notFormatted`, `.invalidCapabilityContainer`;
    ///   `.unexpectedResponse` after it finished.
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
            throw TagEngineError(.unexpectedResponse, "write operation resumed after it finished")
        }
    }

    private mutating func inspected(_ step: TagStep<Type2Snapshot>) throws(TagEngineError) -> TagStep<Void> {
        if let next: TagStep<Void> = Type2Step.forward(step) { return next }
        guard case .done(let snapshot) = step else { throw TagEngineError(.unexpectedResponse, "inspection ended without a result") }
        let (cc, layout) = try snapshot.ndefArea()
        if snapshot.isReadOnly {
            let why = cc.grantsWrite ? "lock bits are set" : "CC byte 3 denies write access (\(cc.writeAccess)h)"
            throw TagEngineError(.readOnly, "the tag is read-only: \(why)")
        }
        guard message.count <= layout.capacity else {
            throw TagEngineError(.capacityExceeded, "the message has \(message.count) bytes; the tag holds at most \(layout.capacity)")
        }
        var writer = Type2PageWriter(try Type2WritePlanner.writes(for: message, layout: layout, memory: snapshot.memory))
        let first = writer.start()
        state = .writing(writer)
        if case .done = first { state = .finished }
        return first
    }
}
