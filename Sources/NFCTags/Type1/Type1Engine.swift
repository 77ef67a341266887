import NFCTransport

/// NDEF on NFC Forum Type 1 Tags: Broadcom Topaz 96 (static memory layout) and Topaz 512
/// (dynamic layout).
///
/// NFC Forum Type 1 Tag Operation Specification 1.1 (T1TOP) over the commands of the
/// BCM20203T512 data sheet. Every operation starts with RALL — HR0, HR1 and blocks 00h–0Eh in one
/// exchange: all of a Topaz 96, and the CC and TLVs of a Topaz 512 — and reads further blocks of a
/// Topaz 512 only as needed, with RSEG or READ8, whichever costs less air time.
///
/// - Writes follow the NMN protocol (`Type1WriteProcedure`): interrupted, a tag holds the old
///   message, the new one, or NMN `00`, which ``readNDEF(on:)`` reports as `.invalidNDEFArea`
///   ("write in progress") and the next write repairs.
/// - ``format(on:)`` writes the CC and TLVs Topaz tags ship with; ``makeReadOnly(on:)`` sets RWA
///   and every lock bit.
///
/// Readers that carry only PC/SC storage-card APDUs (`FF B0`/`FF D6`) cannot reach a Type 1 tag:
/// its commands need a transparent session or direct transmit, and the reader's refusal comes
/// back as the transport's `.unsupportedCommand`.
public struct Type1Engine: NDEFTagEngine {
    /// Always `.type1`.
    public static let family: TagFamily = .type1

    /// Whether missing blocks of a Topaz 512 may be read a segment at a time with RSEG; `false`
    /// reads each with READ8, the one-block-per-command pattern of simple stacks.
    public let readsSegments: Bool

    /// - Parameter readsSegments: whether RSEG may be used (default `true`, the faster choice).
    public init(readsSegments: Bool = true) {
        self.readsSegments = readsSegments
    }

    /// The chip (from HR0), the 7-byte UID and the memory.
    public func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity {
        try await run(Type1IdentifyProcedure(), on: connection)
    }

    /// The NDEF status: `notSupported` without NMN `E1` (or `00` and a valid CC); read-only when RWA
    /// is not `00`; message length 0 while a write is in progress.
    public func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus {
        try await run(Type1StatusProcedure(), on: connection)
    }

    /// Reads the NDEF message.
    /// - Throws: `.notFormatted`, `.invalidCapabilityContainer`, `.invalidNDEFArea` (malformed
    ///   TLVs, or a write in progress).
    public func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult {
        try await run(Type1ReadProcedure(), on: connection)
    }

    /// Writes the message tearing-safe, skipping bytes and blocks that already hold it.
    /// - Throws: `.readOnly` (RWA, or a locked block), `.capacityExceeded`, `.notFormatted`.
    public func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        try await run(Type1WriteProcedure(message: message), on: connection)
    }

    /// Formats a blank Topaz 96 or 512 with an empty message.
    /// - Throws: `.alreadyFormatted` when the tag holds a valid CC; `.unsupported` for another chip.
    public func format(on connection: any TagConnection) async throws(TagEngineError) {
        try await run(Type1FormatProcedure(), on: connection)
    }

    /// Sets RWA to `0F` and every lock bit.
    /// - Throws: `.notFormatted`, or `.invalidNDEFArea` while a write is in progress.
    public func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) {
        try await run(Type1MakeReadOnlyProcedure(), on: connection)
    }

    /// Every block and the header ROM (RALL, then RSEG or READ8 for the rest): a copy for `nfc dump -o`.
    public func capture(on connection: any TagConnection) async throws(TagEngineError) -> Type1Capture {
        try await run(Type1CaptureProcedure(), on: connection)
    }

    /// Writes a capture's data blocks onto this tag, tearing-safe (NMN cleared first and set last, as an NDEF write);
    /// returns how many blocks differed.
    /// - Throws: `.unsupported` for a capture of another model; `.readOnly` when a block that
    ///   differs is locked (before anything is written).
    public func restore(_ capture: Type1Capture, on connection: any TagConnection) async throws(TagEngineError) -> Int {
        try await run(Type1RestoreProcedure(capture: capture), on: connection)
    }

    /// HR0 HR1, then every block as `block NNh` rows.
    public func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] {
        try await run(Type1DumpProcedure(), on: connection)
    }

    private func run<P: Type1Procedure>(_ procedure: P, on connection: any TagConnection) async throws(TagEngineError) -> P.Output {
        try await TagOperationRunner.run(
            Type1Operation(procedure, target: connection.target, limits: connection.limits, readsSegments: readsSegments), on: connection)
    }
}
