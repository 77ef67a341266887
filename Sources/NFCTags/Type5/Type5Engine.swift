import NFCBytes
import NFCTransport

/// The NFC Forum Type 5 Tag engine (ISO/IEC 15693 vicinity tags: NXP ICODE, ST25DV, TI Tag-it…).
///
/// Every request is addressed (the tag's UID in the frame) at the high data rate. NDEF follows
/// the NFC Forum Type 5 Tag Technical Specification 1.0: the capability container in block 0
/// (4 or 8 bytes, `E1` or `E2`), then TLV blocks with the NDEF message TLV.
///
/// Reads use the largest Read Multiple Blocks (0x23, or 0x33 with 16-bit block numbers) that the
/// reader's answer buffer (`ExchangeLimits.maxResponseLength`), the CC's MBREAD flag, the chip and
/// ``maximumBlocksPerRead`` allow; a tag that refuses a long read is asked for fewer blocks and
/// the engine remembers that for the tag's UID. Reading a message takes two exchanges: blocks 0–3
/// (CC and TLV header) and the rest of the message in one read.
///
/// Writes use Write Single Block (0x21 / 0x31) in a tearing-safe order (`Type5WritePlan`) and
/// skip blocks that already hold the wanted bytes; the option flag is set when the CC asks for
/// the special frame.
public struct Type5Engine: NDEFTagEngine {
    /// Always `.type5`.
    public static var family: TagFamily { .type5 }

    /// The most blocks one read may ask for (`nil`: as many as the tag and the reader allow).
    /// 1 reads block by block with Read Single Block, the pattern of many stacks.
    public let maximumBlocksPerRead: Int?

    private let learned = Type5LearnedLimits()

    /// An engine.
    /// - Parameter maximumBlocksPerRead: a cap on blocks per read (at least 1); `nil` for none.
    public init(maximumBlocksPerRead: Int? = nil) {
        self.maximumBlocksPerRead = maximumBlocksPerRead.map { max(1, $0) }
    }

    /// The chip from its UID and system information, with the block geometry when the tag reports it.
    /// - Throws: `.unsupported` when the target is not an ISO/IEC 15693 tag with an 8-byte UID.
    public func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity {
        let session = try makeSession(connection)
        var operation = Type5IdentifyOperation(session: session)
        let information = try await run(&operation, on: connection)
        return Type5Identity.identity(chip: session.chip, information: information)
    }

    /// The NDEF status from blocks 0–3 alone; a tag without a usable CC is `notSupported`.
    public func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus {
        var operation = Type5ReadNDEFOperation(session: try makeSession(connection), statusOnly: true)
        return try await run(&operation, on: connection).status
    }

    /// Reads the NDEF message in two exchanges where the reader allows: blocks 0–3, then the rest.
    /// - Throws: `.notFormatted` without a CC, `.invalidCapabilityContainer`, `.invalidNDEFArea`.
    public func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult {
        var operation = Type5ReadNDEFOperation(session: try makeSession(connection))
        return try await run(&operation, on: connection)
    }

    /// Writes the message block by block in a tearing-safe order, skipping blocks that hold it already.
    /// - Throws: `.readOnly` when the CC's write access or a locked block forbids it,
    ///   `.capacityExceeded`, `.notFormatted`.
    public func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        var operation = Type5WriteNDEFOperation(session: try makeSession(connection), message: message)
        try await run(&operation, on: connection)
    }

    /// Formats a blank tag: a CC sized from the system information and an empty NDEF TLV.
    /// - Throws: `.alreadyFormatted` when block 0 holds a CC; `.unsupported` when the tag reports
    ///   no memory size.
    public func format(on connection: any TagConnection) async throws(TagEngineError) {
        var identify = Type5IdentifyOperation(session: try makeSession(connection))
        let information = try await run(&identify, on: connection)
        var operation = Type5FormatOperation(session: try makeSession(connection), information: information)
        try await run(&operation, on: connection)
    }

    /// Wipes the tag back to an empty formatted one, broken TLVs included (Type5WipeOperation):
    /// the first data block gets `03 00 FE` first, then the rest of the data area is zeroed.
    /// - Returns: the number of blocks written.
    /// - Throws: `.readOnly` for a CC without write access or a locked block that would change.
    @discardableResult
    public func wipe(on connection: any TagConnection) async throws(TagEngineError) -> Int {
        var identify = Type5IdentifyOperation(session: try makeSession(connection))
        let information = try await run(&identify, on: connection)
        var operation = Type5WipeOperation(session: try makeSession(connection), information: information)
        return try await run(&operation, on: connection)
    }

    /// Sets the CC's write access to "never" and, when the CC announces Lock Block, locks the
    /// data area and the CC (see `Type5MakeReadOnlyOperation` for tags without Lock Block).
    /// - Throws: `.notFormatted` without a CC.
    public func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) {
        var operation = Type5MakeReadOnlyOperation(session: try makeSession(connection))
        try await run(&operation, on: connection)
    }

    /// Every block as a row `block N` (` (locked)` when locked) with its bytes.
    public func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] {
        var identify = Type5IdentifyOperation(session: try makeSession(connection))
        let information = try await run(&identify, on: connection)
        var operation = Type5DumpOperation(
            session: try makeSession(connection), blockCount: information.blockCount, blockSize: information.blockSize
        )
        return try await run(&operation, on: connection)
    }

    // MARK: Running

    private func makeSession(_ connection: any TagConnection) throws(TagEngineError) -> Type5Session {
        try Type5Session(
            target: connection.target, limits: connection.limits, maximumBlocksPerRead: maximumBlocksPerRead,
            learning: learned.learning(for: connection.target.identifier)
        )
    }

    /// Runs an operation and keeps what it learned about the tag's reads, even when it failed.
    private func run<Operation: Type5Operation>(_ operation: inout Operation, on connection: any TagConnection) async throws(TagEngineError)
        -> Operation.Output
    {
        do {
            let output = try await TagOperationRunner.run(&operation, on: connection)
            learned.store(operation.session.learning, for: connection.target.identifier)
            return output
        } catch {
            learned.store(operation.session.learning, for: connection.target.identifier)
            throw error
        }
    }
}

/// Builds the ``TagIdentity`` of a Type 5 tag.
enum Type5Identity {
    static func identity(chip: Type5Chip, information: Type5SystemInformation) -> TagIdentity {
        let count = information.blockCount
        let size = information.blockSize
        let geometry = count.flatMap { count in size.map { "\(count) × \($0)" } }
        let model =
            chip.model(icReference: information.icReference, blockCount: count)
            ?? (geometry.map { "ISO 15693 tag (\($0) bytes)" } ?? "ISO 15693 tag")
        var details: [(String, String)] = [("UID", Hex.encode(chip.uid, uppercase: true))]
        if let code = chip.manufacturerCode {
            let name = chip.manufacturerName ?? "unknown manufacturer"
            details.append(("manufacturer", "\(name) (\(Hex.encode([code], uppercase: true)))"))
        }
        if let reference = information.icReference { details.append(("IC reference", Hex.encode([reference], uppercase: true))) }
        if let geometry { details.append(("blocks", geometry)) }
        if let dsfid = information.dsfid { details.append(("DSFID", Hex.encode([dsfid], uppercase: true))) }
        if let afi = information.afi { details.append(("AFI", Hex.encode([afi], uppercase: true))) }
        let memory = count.flatMap { count in size.map { count * $0 } }
        return TagIdentity(family: .type5, model: model, memorySize: memory, details: details)
    }
}
