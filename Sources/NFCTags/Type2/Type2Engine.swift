import NFCTransport

/// The NFC Forum Type 2 engine: NTAG213/215/216, MIFARE Ultralight EV1 and other Type 2 tags.
///
/// Each call runs one state-machine operation (``Type2ReadNDEFOperation``…) with
/// ``TagOperationRunner``. Reads are sized from `connection.limits` (FAST_READ spans up to
/// `maxResponseLength`, READ only on readers that carry READ and WRITE only), writes follow the
/// tearing-safe order of `Type2WritePlanner` and skip pages that already hold the wanted bytes.
/// NFC Forum Type 2 Tag Operation 1.1 (T2TOP); NTAG213/215/216 and MF0ULX1 data sheets.
public struct Type2Engine: NDEFTagEngine {
    /// Always `.type2`.
    public static var family: TagFamily { .type2 }

    /// A cap on the bytes one read returns, below the reader's own limit (`nil`: the limits alone).
    public let maximumReadLength: Int?

    /// - Parameter maximumReadLength: a cap on the bytes per read (16 emulates the common pattern of
    ///   one 16-byte READ per exchange); `nil` uses the connection's limits.
    public init(maximumReadLength: Int? = nil) {
        self.maximumReadLength = maximumReadLength
    }

    /// The model from GET_VERSION, or a description from pages 0–3 when the chip does not answer it
    /// (``Type2IdentifyOperation``).
    public func identify(on connection: any TagConnection) async throws(TagEngineError) -> TagIdentity {
        try await TagOperationRunner.run(
            Type2IdentifyOperation(
                limits: connection.limits, identifier: connection.target.identifier, maximumReadLength: maximumReadLength),
            on: connection
        )
    }

    /// The NDEF status (``Type2StatusOperation``): `notSupported` for a blank or unformatted tag or a CC out
    /// of range; read-only when the CC or a lock bit forbids writing.
    /// - Throws: `.invalidNDEFArea` when the TLV area contradicts itself; transport failures.
    public func queryStatus(on connection: any TagConnection) async throws(TagEngineError) -> NDEFStatus {
        try await TagOperationRunner.run(
            Type2StatusOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Reads the NDEF message in as few reads as the limits allow (``Type2ReadNDEFOperation``).
    /// - Throws: `.notFormatted` for a blank CC or one without the magic number E1h,
    ///   `.invalidCapabilityContainer`, `.unsupported` when the CC grants no read access, `.invalidNDEFArea`
    ///   when the TLV area contradicts itself.
    public func readNDEF(on connection: any TagConnection) async throws(TagEngineError) -> NDEFReadResult {
        try await TagOperationRunner.run(
            Type2ReadNDEFOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Writes the message tearing-safe, skipping pages that already hold it (``Type2WriteNDEFOperation``).
    /// - Throws: `.readOnly` when the CC or a lock bit forbids writing, `.capacityExceeded`,
    ///   `.notFormatted`.
    public func writeNDEF(_ message: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(
            Type2WriteNDEFOperation(message: message, limits: connection.limits, maximumReadLength: maximumReadLength),
            on: connection
        )
    }

    /// Formats a blank NTAG21x or Ultralight EV1: the TLVs `03 00 FE` in page 4, then the CC (one-time
    /// programmable) last; the model must be known from GET_VERSION.
    public func format(on connection: any TagConnection) async throws(TagEngineError) {
        _ = try await TagOperationRunner.run(
            Type2FormatOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Locks the tag for good: CC write access Fh first, then the dynamic and static lock bits
    /// (``Type2MakeReadOnlyOperation``).
    /// - Throws: `.unsupported` when the dynamic lock bytes cannot be located (no Lock Control TLV and no
    ///   known model).
    public func makeReadOnly(on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(
            Type2MakeReadOnlyOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Every readable page, labelled with its page number in hex (`00h`, `01h`, …).
    public func dump(on connection: any TagConnection) async throws(TagEngineError) -> [(String, [UInt8])] {
        try await memoryDump(on: connection).rows
    }

    /// Every readable page, and the pages of the model that refused to be read.
    public func memoryDump(on connection: any TagConnection) async throws(TagEngineError) -> TagMemoryDump {
        try await TagOperationRunner.run(
            Type2DumpOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    // MARK: NTAG21x and Ultralight EV1 copies and wipes

    /// Everything the chip gives up for a copy: memory, signature, counters (``Type2CaptureOperation``).
    /// - Throws: `.unsupported` when the model is unknown; transport failures.
    public func capture(on connection: any TagConnection) async throws(TagEngineError) -> Type2Capture {
        try await TagOperationRunner.run(
            Type2CaptureOperation(limits: connection.limits, maximumReadLength: maximumReadLength), on: connection)
    }

    /// Writes a copy back onto a tag of the same model (Type2RestoreOperation).
    /// - Returns: the number of pages written (0 when the tag already held the image).
    /// - Throws: `.unsupported` for another model or a CC that would need bits cleared; `.readOnly`
    ///   when a lock bit guards a page that must change; `.authenticationFailed` when a page to write is
    ///   protected by AUTH0 and `authenticated` is false (PWD_AUTH did not open the tag on this
    ///   connection), before anything is written; `.tagError` for a refused WRITE.
    @discardableResult
    public func restore(_ image: Type2Capture, parts: Type2RestoreParts = [], authenticated: Bool = false, on connection: any TagConnection)
        async throws(TagEngineError) -> Int
    {
        try await TagOperationRunner.run(
            Type2RestoreOperation(
                image: image, parts: parts, authenticated: authenticated, limits: connection.limits, maximumReadLength: maximumReadLength),
            on: connection)
    }

    /// Wipes the tag back to an empty formatted tag, broken TLVs included (Type2WipeOperation).
    /// - Returns: the number of pages written.
    /// - Throws: `.readOnly` for a locked tag; `.unsupported` for an unknown model or a damaged CC;
    ///   `.authenticationFailed` as for ``restore(_:parts:authenticated:on:)``.
    @discardableResult
    public func wipe(authenticated: Bool = false, on connection: any TagConnection) async throws(TagEngineError) -> Int {
        try await TagOperationRunner.run(
            Type2WipeOperation(authenticated: authenticated, limits: connection.limits, maximumReadLength: maximumReadLength),
            on: connection)
    }

    // MARK: NTAG21x and Ultralight EV1 password protection

    /// Protects pages from `page` on with a password (PWD, PACK, PROT, then AUTH0 last), then
    /// reactivates the tag: the chip reads AUTH0 and ACCESS when it is activated (NTAG213/215/216
    /// and MF0ULX1 data sheets, "Configuration pages"), and a PC/SC reader keeps a tag activated
    /// from one connection to the next, so without it the protection would wait for the tag to
    /// leave the field. It is in force when this returns.
    /// - Parameters:
    ///   - password: PWD, 4 bytes.
    ///   - pack: PACK, 2 bytes.
    ///   - page: AUTH0, the first protected page (FFh or past the last page: none).
    ///   - protectReads: whether reads need the password too, not just writes.
    ///   - connection: the tag's connection.
    /// - Throws: `unsupported` for a chip whose configuration pages are unknown or bad argument
    ///   lengths; `tagError` when the configuration is locked or already protected (authenticate
    ///   first).
    public func setPassword(_ password: [UInt8], pack: [UInt8], protectFrom page: Int, protectReads: Bool, on connection: any TagConnection)
        async throws(TagEngineError)
    {
        _ = try await TagOperationRunner.run(
            ReactivatingOperation(
                Type2SetPasswordOperation(
                    password: password, pack: pack, firstProtectedPage: page, protectReads: protectReads, limits: connection.limits)),
            on: connection
        )
    }

    /// Sends PWD_AUTH and returns the tag's PACK; protected pages stay open until reactivation.
    /// - Parameters:
    ///   - password: PWD, 4 bytes.
    ///   - expectedPACK: the PACK the tag must answer (`nil`: any).
    ///   - connection: the tag's connection.
    /// - Throws: `authenticationFailed` with the NAK as `tagStatus` for a wrong password, or for an
    ///   unexpected PACK.
    @discardableResult
    public func authenticate(password: [UInt8], expectedPACK: [UInt8]? = nil, on connection: any TagConnection) async throws(TagEngineError)
        -> [UInt8]
    {
        try await TagOperationRunner.run(
            Type2AuthenticateOperation(password: password, expectedPACK: expectedPACK, limits: connection.limits),
            on: connection
        )
    }

    /// Authenticates with the current password, then sets AUTH0 to FFh (nothing protected) and
    /// reactivates the tag, as ``setPassword(_:pack:protectFrom:protectReads:on:)`` does.
    public func removePassword(currentPassword: [UInt8], on connection: any TagConnection) async throws(TagEngineError) {
        try await TagOperationRunner.run(
            ReactivatingOperation(Type2RemovePasswordOperation(currentPassword: currentPassword, limits: connection.limits)),
            on: connection)
    }

    /// The 32-byte originality signature (READ_SIG).
    public func readSignature(on connection: any TagConnection) async throws(TagEngineError) -> [UInt8] {
        try await TagOperationRunner.run(Type2ReadSignatureOperation(limits: connection.limits), on: connection)
    }
}
