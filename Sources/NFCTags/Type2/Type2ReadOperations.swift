import NFCTransport

/// Queries the NDEF status of a Type 2 tag: GET_VERSION, pages 2–5, the TLVs up to the NDEF TLV, and
/// the dynamic lock bytes while nothing else says read-only.
///
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.1. A blank or unformatted tag, or a CC out of range,
/// is `notSupported`; a TLV area that contradicts itself throws `invalidNDEFArea`.
public struct Type2StatusOperation: TagOperation {
    private var inspection: Type2Inspection

    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        inspection = Type2Inspection(limits: limits, maximumReadLength: maximumReadLength, goal: .status)
    }

    /// Starts the inspection: GET_VERSION (when the reader carries it), then pages 2–5.
    public mutating func start() throws(TagEngineError) -> TagStep<NDEFStatus> {
        try finish(inspection.start())
    }

    /// Follows the inspection; done with the status.
    /// - Throws: `.invalidNDEFArea` when the TLV area contradicts itself; transport failures.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<NDEFStatus> {
        try finish(inspection.resume(with: outcome))
    }

    private func finish(_ step: TagStep<Type2Snapshot>) throws(TagEngineError) -> TagStep<NDEFStatus> {
        if let next: TagStep<NDEFStatus> = Type2Step.forward(step) { return next }
        guard case .done(let snapshot) = step else { throw TagEngineError(.unexpectedResponse, "inspection ended without a result") }
        return .done(snapshot.status)
    }
}

/// Reads the NDEF message of a Type 2 tag in as few exchanges as the reader allows.
///
/// After GET_VERSION and one read of pages 2–5 (lock bytes, CC, 8 data bytes), the rest of the
/// message and the dynamic lock bytes come in FAST_READs as long as `limits.maxResponseLength` (and
/// the cap) allow: one for a whole NTAG216. Readers that carry only READ get 16-byte READs.
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP) §6.4.2 (NDEF read procedure).
public struct Type2ReadNDEFOperation: TagOperation {
    private var inspection: Type2Inspection

    /// - Parameters:
    ///   - limits: the connection's limits.
    ///   - maximumReadLength: a cap on the bytes one read returns (`nil`: the limits alone).
    public init(limits: ExchangeLimits, maximumReadLength: Int? = nil) {
        inspection = Type2Inspection(limits: limits, maximumReadLength: maximumReadLength, goal: .read)
    }

    /// Starts the inspection: GET_VERSION (when the reader carries it), then pages 2–5.
    public mutating func start() throws(TagEngineError) -> TagStep<NDEFReadResult> {
        try finish(inspection.start())
    }

    /// Follows the inspection; done with the status and the message.
    /// - Throws: `.notFormatted` for a blank CC or one without the magic number E1h,
    ///   `.invalidCapabilityContainer`, `.unsupported` when the CC grants no read access, `.invalidNDEFArea`
    ///   when the TLV area contradicts itself.
    public mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        try finish(inspection.resume(with: outcome))
    }

    private func finish(_ step: TagStep<Type2Snapshot>) throws(TagEngineError) -> TagStep<NDEFReadResult> {
        if let next: TagStep<NDEFReadResult> = Type2Step.forward(step) { return next }
        guard case .done(let snapshot) = step else { throw TagEngineError(.unexpectedResponse, "inspection ended without a result") }
        return .done(NDEFReadResult(status: snapshot.status, message: try snapshot.message()))
    }
}
