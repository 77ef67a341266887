import NFCBytes
import NFCTransport

/// `pn532-target:PATH`: a reader whose card is a program driving a virtual PN532 as a target.
///
/// It makes a pseudo-terminal linked at PATH, where a virtual PN532 waits for a host (libnfc:
/// `LIBNFC_DEVICE=pn532_uart:PATH nfc-emulate-forum-tag4 FILE`). Once that program runs
/// TgInitAsTarget, its card is in this reader's field (``PN532TargetField``), and our engines
/// read it as any card: the outside program checks them, independently of our virtual tags.
///
/// The chip's initiator side has nothing in its field. ``stop()`` (or releasing the reader)
/// ends the chip and removes the link.
public final class PN532TargetReader: ReaderDriver, Sendable {
    /// `pn532-target:PATH`.
    public let name: String
    /// The card the host program plays, as an initiator sees it.
    public let field: PN532TargetField
    /// The link the host opens.
    public let linkPath: String
    private let stopped = Guarded(false)
    private let served: Task<VirtualPN532.Statistics, Never>

    /// Makes the pseudo-terminal, links `linkPath` to it and starts the chip.
    /// - Throws: `TransportError` `.serviceUnavailable` when the terminal or the link cannot be made.
    public init(linkPath: String) throws(TransportError) {
        let terminal = try PseudoTerminal(linkingAt: linkPath)
        let name = "pn532-target:\(linkPath)"
        let field = PN532TargetField(name: name)
        let stopped = self.stopped
        self.name = name
        self.field = field
        self.linkPath = linkPath
        // The task owns the terminal: its descriptor closes only after the chip stopped reading it.
        served = Task.detached {
            let statistics = await VirtualPN532.serve(
                fileDescriptor: terminal.master, driver: EmptyField(), targetField: field, stopped: stopped)
            terminal.close()
            return statistics
        }
    }

    deinit { stopped.withLock { $0 = true } }

    /// Stops the chip, removes the link and returns what the host asked for.
    @discardableResult
    public func stop() async -> VirtualPN532.Statistics {
        stopped.withLock { $0 = true }
        return await served.value
    }

    /// The host program's card, when it offers one that matches `mask`.
    public func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] {
        try await field.targets(matching: mask)
    }

    /// The host program's card arriving (TgInitAsTarget) and leaving.
    public func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        await field.events(matching: mask)
    }

    /// Activates the host program's card.
    public func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        try await field.connect(to: target, meter: meter)
    }
}

/// A field with nothing in it: the initiator side of a chip that serves as a target.
final class EmptyField: ReaderDriver, Sendable {
    let name = "empty"
    func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo] { [] }
    /// No arrival ever; the stream ends when its reader stops iterating (a poll aborted). The
    /// continuation keeps itself alive until then.
    func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderEvent.self)
        continuation.onTermination = { _ in _ = continuation }
        return stream
    }
    func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection {
        throw TransportError(.noSuchTarget, "no target in the field")
    }
}
