import ISO7816
import NFCTransport

/// The NFC Forum Type 4 Tag engine: NDEF over ISO-DEP with ISO/IEC 7816-4 APDUs.
///
/// Every call runs a ``Type4Procedure`` as a ``Type4Operation`` (a state machine) over the
/// connection, whose frames are APDUs (the driver does ISO-DEP). The procedures follow NFC Forum
/// Type 4 Tag 2.0 §5 and T4T 3.0:
/// - detection: SELECT the NDEF Tag Application (mapping 1.0 AID as fallback), SELECT and READ
///   the CC file `E103`, check it (``Type4Capabilities``), SELECT the NDEF file, READ NLEN/ENLEN;
/// - reading: READ BINARY commands as large as MLe and the reader allow — one extended READ
///   BINARY for a whole 8 KB message when both take extended APDUs (``Type4TransferSizes``);
/// - writing: NLEN `0000`, the changed ranges, NLEN (tearing-safe, ``Type4WriteProcedure``);
/// - formatting and locking: only what standard commands can do (``Type4FormatProcedure``,
///   ``Type4LockProcedure``), `.unsupported` with the reason otherwise.
public struct Type4Engine: NDEFTagEngine {
    /// Always `.type4`.
    public static let family = TagFamily.type4

    /// A cap on the data bytes one READ BINARY asks for; `nil` for the largest the CC and reader
    /// allow. Benchmarks set it to emulate common stacks (e.g. 251 bytes per command).
    public let maximumReadLength: Int?

    /// An engine; `maximumReadLength` caps the data bytes per READ BINARY (values below 1 count as 1;
    /// `nil`: no cap).
    public init(maximumReadLength: Int? = nil) {
        self.maximumReadLength = maximumReadLength.map { max($0, 1) }
    }

    /// Runs a procedure over a connection.
    /// - Throws: `.unsupported` when the target does not speak ISO-DEP; the procedure's errors.
    public func run<Procedure: Type4Procedure>(_ procedure: Procedure, on connection: any TagConnection) async throws(TagEngineError)
        -> Procedure.Output
    {
        guard connection.target.speaksISODEP else {
            throw TagEngineError(.unsupported, "\(connection.target) does not speak ISO-DEP (no ATS): it is not a Type 4 Tag")
        }
        return try await TagOperationRunner.run(Type4Operation(procedure, limits: connection.limits), on: connection)
    }

    /// The card's model from its ATS historical bytes and UID, and the NDEF mapping version and file
    /// size when the card holds a valid CC (``Type4IdentifyProcedure``).
    /// - Throws: `.unsupported` when the target does not speak ISO-DEP.
    public func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity {
        try await run(Type4IdentifyProcedure(target: connection.target), on: connection)
    }

    /// The NDEF status: `notSupported` when the card has no NDEF Tag Application, its CC is
    /// invalid, or its read access is proprietary; read-write or read-only (write access `00`
    /// or anything else) with the capacity (the NDEF file size less NLEN or ENLEN) otherwise.
    /// - Throws: `.invalidNDEFArea` when NLEN exceeds the file; transport errors.
    public func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus {
        let file: Type4NDEFFile
        do {
            file = try await run(Type4Detection(depth: .messageLength), on: connection)
        } catch  where [.notFormatted, .invalidCapabilityContainer, .authenticationFailed].contains(error.code) {
            return .notSupported
        }
        guard file.messageLengthIsValid else {
            throw TagEngineError(
                .invalidNDEFArea,
                "NLEN \(file.messageLength ?? 0) of file \(Type4Status.hex(file.capabilities.ndefFileID)) is outside 3–\(file.capabilities.capacity)"
            )
        }
        return file.status
    }

    /// Reads the NDEF message (``Type4ReadProcedure``).
    /// - Throws: the detection errors (`.notFormatted`, `.invalidCapabilityContainer`,
    ///   `.authenticationFailed`); `.invalidNDEFArea` when NLEN or ENLEN is outside 3…capacity.
    public func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult {
        try await run(Type4ReadProcedure(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Writes the message tearing-safe, skipping ranges that already hold it (``Type4WriteProcedure``).
    /// - Throws: `.readOnly` when the CC's write access is not `00` or the file refuses updates,
    ///   `.capacityExceeded`, the detection errors; `.invalidNDEFArea` or `.tagError` for another refusal.
    public func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        try await run(
            Type4WriteProcedure(message: message, limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Repairs the one case standard commands can: an out-of-range NLEN is reset to 0
    /// (``Type4FormatProcedure``).
    /// - Throws: `.alreadyFormatted` for a valid NDEF file; `.unsupported` when the application or the CC
    ///   is missing or invalid; `.readOnly` when the CC forbids writing.
    public func format(on connection: any TagConnection) async throws(TagEngineError) {
        try await run(Type4FormatProcedure(), on: connection)
    }

    /// Writes `FF` into the CC's write access byte and reads it back (``Type4LockProcedure``).
    /// - Throws: `.unsupported` when the write access is proprietary or the CC file refuses the update.
    public func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) {
        try await run(Type4LockProcedure(), on: connection)
    }

    /// The CC file and the NDEF file as rows of 16 bytes labelled `E103:0000`… (``Type4DumpProcedure``).
    /// - Throws: `.notFormatted` when the card has no NDEF Tag Application.
    public func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] {
        try await run(Type4DumpProcedure(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }
}
