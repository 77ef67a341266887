import NFCTransport

/// Runs an operation, then reactivates the tag before finishing: for operations that change
/// configuration a chip reads only at activation (NTAG21x and MIFARE Ultralight EV1 read AUTH0
/// and ACCESS then; their data sheets, "Configuration pages"), so that it is in force when the
/// operation returns even on a reader that keeps the tag activated between connections (PC/SC).
/// A state machine like the operation it wraps: the reactivation is a ``TagStep/reactivate``.
struct ReactivatingOperation<Inner: TagOperation>: TagOperation {
    private var inner: Inner
    private var finished: Inner.Output?

    init(_ inner: Inner) { self.inner = inner }

    mutating func start() throws(TagEngineError) -> TagStep<Inner.Output> {
        after(try inner.start())
    }

    mutating func resume(with outcome: Result<[UInt8], TransportError>) throws(TagEngineError) -> TagStep<Inner.Output> {
        if let finished {
            _ = try outcome.answer()
            return .done(finished)
        }
        return after(try inner.resume(with: outcome))
    }

    /// The inner step, with its `.done` held back behind a reactivation.
    private mutating func after(_ step: TagStep<Inner.Output>) -> TagStep<Inner.Output> {
        guard case .done(let output) = step else { return step }
        finished = output
        return .reactivate
    }
}
