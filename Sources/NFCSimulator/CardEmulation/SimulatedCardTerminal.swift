import NFCTransport

/// A contactless terminal for tests of card emulation: the reader an app's `CardSession` meets.
///
/// The test drives it as a point-of-sale or access-control reader would: ``tap()`` brings the
/// phone into its field, ``send(_:)`` sends a command APDU and waits for the card's response,
/// ``remove()`` takes the phone away. It is the `CardEmulationFront` (NFCTransport) the session listens on
/// (`NFCSessionEnvironment.shared.cardEmulationFront`).
///
/// Nothing waits forever: a command outstanding when the phone is removed, the card stops
/// emulating, or the session stops listening fails with `tagLost`.
public actor SimulatedCardTerminal: CardEmulationFront {
    public nonisolated let name = "simulated terminal"

    private var events: AsyncStream<CardEmulationEvent>.Continuation?
    private var inField = false
    private var cardPresent = false
    private var nextID = 0
    private var generation = 0
    private var pending: [Int: CheckedContinuation<[UInt8], any Error>] = [:]

    /// A terminal with no phone in its field.
    public init() {}

    /// Starts listening (the session's side), replacing any listener before.
    public func startListening() async throws(TransportError) -> AsyncStream<CardEmulationEvent> {
        dropListener("another listener took over")
        generation += 1
        let current = generation
        let (stream, continuation) = AsyncStream.makeStream(of: CardEmulationEvent.self)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.listenerEnded(current) }
        }
        events = continuation
        if inField { continuation.yield(.readerDetected) }
        return stream
    }

    /// Whether the card answers (the session's side).
    public func setCardPresent(_ present: Bool) async {
        cardPresent = present
        if !present { failPending("the card stopped emulating") }
    }

    /// The listener of `ended` stopped iterating: if it is still the current one, the card is gone.
    private func listenerEnded(_ ended: Int) {
        guard ended == generation else { return }
        dropListener("the session stopped listening")
    }

    private func dropListener(_ reason: String) {
        cardPresent = false
        failPending(reason)
        events?.finish()
        events = nil
    }

    /// Brings the phone into the field: a listening session sees `readerDetected`.
    public func tap() {
        guard !inField else { return }
        inField = true
        events?.yield(.readerDetected)
    }

    /// Takes the phone away: a listening session sees `readerDeselected`; outstanding commands fail.
    public func remove() {
        guard inField else { return }
        inField = false
        failPending("the phone left the field")
        events?.yield(.readerDeselected)
    }

    /// Sends a command APDU and returns the card's response (data and status word).
    /// - Throws: `noSuchTarget` when no emulating card is in the field; `tagLost` when the card
    ///   goes away before it answers.
    public func send(_ command: [UInt8]) async throws -> [UInt8] {
        guard inField, cardPresent, let events else {
            throw TransportError(.noSuchTarget, "no emulated card in the terminal's field")
        }
        nextID += 1
        let id = nextID
        return try await withCheckedThrowingContinuation { continuation in
            pending[id] = continuation
            let delivery = events.yield(
                .command(
                    EmulatedCommand(bytes: command) { [weak self] response in
                        await self?.answer(id, response) ?? false
                    }))
            if case .terminated = delivery {
                // The listener has just gone: no card to answer.
                pending[id] = nil
                continuation.resume(throwing: TransportError(.tagLost, "the session stopped listening"))
            }
        }
    }

    private func answer(_ id: Int, _ response: [UInt8]) -> Bool {
        guard let continuation = pending.removeValue(forKey: id) else { return false }
        continuation.resume(returning: response)
        return true
    }

    private func failPending(_ reason: String) {
        let waiting = pending
        pending = [:]
        for continuation in waiting.values { continuation.resume(throwing: TransportError(.tagLost, reason)) }
    }
}
