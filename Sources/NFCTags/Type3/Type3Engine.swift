import NFCTransport

/// NDEF on NFC Forum Type 3 Tags: FeliCa Lite, Lite-S and FeliCa Standard cards with the NDEF
/// system `12FC`.
///
/// NFC Forum Type 3 Tag Operation Specification 1.0 over the FeliCa commands Polling, Read
/// Without Encryption (service `000B`) and Write Without Encryption (service `0009`); the FeliCa
/// Lite-S User's Manual for what only the Lite chips offer (the MC block: SYS_OP, write
/// permissions).
///
/// - Reads carry as many blocks per command as Nbr, the chip, the frame (15 blocks) and the
///   reader's buffers allow; on Lite-S the first read also carries MC and the first data blocks,
///   so a full 208-byte message takes four reads (4, 4, 4, 3 blocks).
/// - Writes follow the WriteF protocol and skip blocks that already hold the wanted bytes (see
///   `Type3WriteOperation`): interrupted, a tag holds the old message, the new one, or a
///   "write in progress" mark that ``readNDEF(on:)`` reports as `.invalidNDEFArea`.
/// - ``format(on:)`` prepares a blank FeliCa Lite/Lite-S; ``makeReadOnly(on:)`` sets RWFlag and,
///   on Lite chips, locks the blocks in MC.
public struct Type3Engine: NDEFTagEngine {
    /// Always `.type3`.
    public static let family: TagFamily = .type3

    /// The most blocks one read command may carry, on top of Nbr and the driver's limits
    /// (`nil`: no cap). 1 gives the one-block-per-read pattern of simple stacks.
    public let maximumBlocksPerRead: Int?

    /// - Parameter maximumBlocksPerRead: a cap on blocks per read (values below 1 count as 1).
    public init(maximumBlocksPerRead: Int? = nil) {
        self.maximumBlocksPerRead = maximumBlocksPerRead
    }

    /// The FeliCa chip (from the PMm IC type), its systems and, on Lite chips, its memory.
    /// - Throws: `.unsupported` when the target is not a FeliCa card.
    public func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity {
        try await TagOperationRunner.run(Type3IdentifyOperation(link: link(connection)), on: connection)
    }

    /// The NDEF status from detection alone: `notSupported` without an NDEF system or with an invalid
    /// attribute block; read-only when RWFlag is `00` (or MC locks the blocks on Lite-S); capacity
    /// Nmaxb × 16 bytes; message length 0 while WriteF says a write is in progress.
    public func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus {
        try await TagOperationRunner.run(Type3StatusOperation(link: link(connection)), on: connection)
    }

    /// Reads the NDEF message.
    /// - Throws: `.notFormatted` without an NDEF system, `.invalidCapabilityContainer` for an
    ///   invalid attribute block, `.invalidNDEFArea` while WriteF says a write is in progress,
    ///   `.tagError` when the card refuses a read.
    public func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult {
        try await TagOperationRunner.run(Type3ReadOperation(link: link(connection)), on: connection)
    }

    /// Writes the message in the WriteF order, skipping blocks that already hold the wanted bytes.
    /// - Throws: `.readOnly`, `.capacityExceeded` beyond Nmaxb × 16 bytes, `.notFormatted`.
    public func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(Type3WriteOperation(link: link(connection), message: message), on: connection)
    }

    /// Formats a blank FeliCa Lite or Lite-S: SYS_OP in MC, then the attribute block in S_PAD0.
    /// - Throws: `.alreadyFormatted` when the card answers `12FC` with a valid attribute block;
    ///   `.unsupported` for other chips; `.readOnly` when MC makes S_PAD0 read-only.
    public func format(on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(Type3FormatOperation(link: link(connection)), on: connection)
    }

    /// Sets RWFlag `00` in the attribute block and, on FeliCa Lite and Lite-S, locks the NDEF blocks in MC
    /// (a FeliCa Standard card gets only the attribute block).
    public func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(Type3MakeReadOnlyOperation(link: link(connection)), on: connection)
    }

    /// IDm, PMm and the readable blocks as `block N (name)` rows; a refused block is a row without
    /// bytes whose label gives the status flags.
    public func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] {
        try await TagOperationRunner.run(Type3DumpOperation(link: link(connection)), on: connection)
    }

    private func link(_ connection: any TagConnection) throws(TagEngineError) -> Type3Link {
        try Type3Link(target: connection.target, limits: connection.limits, maximumBlocksPerRead: maximumBlocksPerRead)
    }
}
