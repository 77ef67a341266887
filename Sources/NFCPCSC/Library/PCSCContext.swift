import NFCBytes
import NFCTransport

/// One `SCARDCONTEXT`: a session with pcscd (or the macOS PC/SC service).
///
/// pcsc-lite serialises calls on one context, so a blocking `SCardGetStatusChange` would hold
/// up transmits: the event monitor uses a context of its own. After pcscd restarts every
/// call fails with `SCARD_E_NO_SERVICE`/`SCARD_E_INVALID_HANDLE`; `reestablish()` opens a new
/// context.
final class PCSCContext: Sendable {
    let library: PCSCLibrary
    private let handle: Guarded<PCSCABI.SCARDCONTEXT?>

    init(library: PCSCLibrary) throws(TransportError) {
        self.library = library
        handle = Guarded(nil)
        try reestablish()
    }

    deinit {
        if let context = handle.withLock({ $0 }) { _ = library.releaseContext(context) }
    }

    /// Releases the current context (if any) and establishes a new one.
    func reestablish() throws(TransportError) {
        var context: PCSCABI.SCARDCONTEXT = 0
        let status = PCSCStatus(library.establishContext(PCSCABI.scopeSystem, nil, nil, &context))
        guard status == .success else {
            throw status.transportError("cannot reach the PC/SC service")
        }
        let old = handle.withLock { value -> PCSCABI.SCARDCONTEXT? in
            defer { value = context }
            return value
        }
        if let old { _ = library.releaseContext(old) }
    }

    private var context: PCSCABI.SCARDCONTEXT { handle.withLock { $0 } ?? 0 }

    /// Runs `body`, and once more on a new context when pcscd went away in between.
    func retryingAfterRestart<T>(_ body: (PCSCABI.SCARDCONTEXT) -> (PCSCStatus, T)) throws(TransportError) -> (PCSCStatus, T) {
        let first = body(context)
        guard first.0.meansServiceGone else { return first }
        try reestablish()
        return body(context)
    }

    /// The names of the readers pcscd knows, in its order; none is not an error.
    func readers() throws(TransportError) -> [String] {
        let (status, names) = try retryingAfterRestart { context -> (PCSCStatus, [String]) in
            var length: PCSCABI.DWORD = 0
            var status = PCSCStatus(library.listReaders(context, nil, nil, &length))
            guard status == .success, length > 0 else { return (status, []) }
            var buffer = [CChar](repeating: 0, count: Int(length))
            status = PCSCStatus(library.listReaders(context, nil, &buffer, &length))
            guard status == .success else { return (status, []) }
            return (status, Self.multiString(buffer))
        }
        switch status {
        case .success: return names
        case .noReadersAvailable: return []
        default: throw status.transportError("cannot list readers")
        }
    }

    /// Splits a `NUL`-separated, double-`NUL`-terminated list.
    static func multiString(_ buffer: [CChar]) -> [String] {
        buffer.split(separator: 0, omittingEmptySubsequences: true).map { chars in
            String(decoding: chars.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Blocks until a reader in `states` changes or `timeoutMilliseconds` pass.
    func waitForChange(_ states: ReaderStateArray, timeoutMilliseconds: UInt32) -> PCSCStatus {
        PCSCStatus(library.getStatusChange(context, PCSCABI.DWORD(timeoutMilliseconds), states.pointer, PCSCABI.DWORD(states.count)))
    }

    /// Wakes a `waitForChange` blocked on this context.
    func cancel() {
        _ = library.cancel(context)
    }

    /// Connects to the card in `reader` (T=0 or T=1, as contactless readers report T=1).
    func connect(reader: String, exclusive: Bool = false) throws(TransportError) -> PCSCCard {
        let share = exclusive ? PCSCABI.shareExclusive : PCSCABI.shareShared
        let (status, result) = try retryingAfterRestart { context -> (PCSCStatus, (PCSCABI.SCARDHANDLE, PCSCABI.DWORD)) in
            var card: PCSCABI.SCARDHANDLE = 0
            var active: PCSCABI.DWORD = 0
            let status = reader.withCString { name in
                PCSCStatus(library.connect(context, name, share, PCSCABI.protocolT0 | PCSCABI.protocolT1, &card, &active))
            }
            return (status, (card, active))
        }
        guard status == .success else {
            throw status.transportError("cannot connect to the tag on \(reader)")
        }
        return PCSCCard(library: library, handle: result.0, protocol: result.1, reader: reader, share: share)
    }
}
