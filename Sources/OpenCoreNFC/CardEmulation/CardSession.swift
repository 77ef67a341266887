import Foundation
import NFCBytes
import NFCTransport

/// An ISO 7816 card emulation session (Core NFC, iOS 17.4: `CardSession`): the app answers the
/// APDUs an outside reader sends, as a contactless card would.
///
/// As on iOS: creating the session starts its ``eventStream`` with
/// ``Event/sessionStarted``; a reader's field gives ``Event/readerDetected``; after
/// ``startEmulation()`` the reader finds a card, and every APDU meant for the app arrives as
/// ``Event/received(_:)``, to be answered with ``APDU/respond(response:)``;
/// ``Event/readerDeselected`` when the reader leaves; ``invalidate()`` ends it all with
/// ``Event/sessionInvalidated(reason:)``, the stream's last event.
///
/// Where the reader comes from: ``NFCSessionEnvironment/cardEmulationFront`` (a
/// `SimulatedCardTerminal` in tests). The app's rules come from its configuration: the
/// `com.apple.developer.nfc.hce` entitlement, and the Info.plist's
/// `com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes`.
///
/// Routing, as the system does it for the app: a SELECT by DF name (ISO/IEC 7816-4 §11.2.2,
/// `INS A4`, `P1 04`) whose AID begins with one of the declared prefixes reaches the app, and so
/// does every command after it until another SELECT by name; the system answers the others
/// itself with `6A82` (file or application not found, ISO/IEC 7816-4 §5.6) without bothering the
/// app. A SELECT of another AID after the app's deselects it (``Event/readerDeselected``).
/// Emulation stops after ``NFCSessionEnvironment/sessionLifetime`` with
/// ``Error/maxSessionDurationReached``. One card session may be active at a time.
@available(iOS 17.4, *)
open class CardSession: @unchecked Sendable {
    private enum Phase { case started, emulating, ended }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var phase = Phase.started
    private var routed = false
    private var message = ""
    private var listener: Task<Void, Never>?
    private var limit: Task<Void, Never>?

    private let front: any CardEmulationFront
    private let prefixes: [[UInt8]]
    private let events: AsyncStream<Event>.Continuation

    /// The session's events, from ``Event/sessionStarted`` to ``Event/sessionInvalidated(reason:)``.
    public let eventStream: EventStream

    /// Whether this device can emulate cards: here, whether a card-emulation front is set.
    open class var isSupported: Bool { NFCSessionEnvironment.shared.cardEmulationFront != nil }

    /// Whether card emulation is offered here and now: supported, in an eligible region.
    public static var isEligible: Bool {
        get async { isSupported && NFCSessionEnvironment.shared.isInEligibleRegion }
    }

    /// Whether emulation is running.
    public var isEmulationInProgress: Bool {
        get async { lock.withLock { phase == .emulating } }
    }

    /// The text of the system's emulation sheet (kept, shown nowhere).
    public var alertMessage: String {
        get { lock.withLock { message } }
        set { lock.withLock { message = newValue } }
    }

    /// Starts a session and its event stream.
    /// - Throws: ``Error/systemNotAvailable`` (no front, another card session active, or the front
    ///   fails to start), ``Error/systemEligibilityFailed``, ``Error/accessNotAccepted`` (no
    ///   `com.apple.developer.nfc.hce` entitlement).
    public init() async throws {
        let environment = NFCSessionEnvironment.shared
        guard let front = environment.cardEmulationFront else { throw Error.systemNotAvailable }
        guard environment.isInEligibleRegion else { throw Error.systemEligibilityFailed }
        guard let configuration = environment.appConfiguration, configuration.cardEmulationEntitled else {
            throw Error.accessNotAccepted
        }
        guard CardSessionSlot.claim() else { throw Error.systemNotAvailable }
        let readerEvents: AsyncStream<CardEmulationEvent>
        do {
            readerEvents = try await front.startListening()
        } catch {
            CardSessionSlot.release()
            throw Error.systemNotAvailable
        }
        self.front = front
        self.prefixes = configuration.cardEmulationPrefixes
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        self.events = continuation
        self.eventStream = EventStream(stream)
        continuation.yield(.sessionStarted)
        let task = Task { [weak self] in
            for await event in readerEvents {
                guard let self else { return }
                await self.handle(event)
            }
            self?.end(.systemNotAvailable)
        }
        lock.withLock { listener = task }
    }

    deinit {
        end(.invalidated)
    }

    /// Lets readers find the card; ``Event/received(_:)`` follows for the app's APDUs.
    /// - Throws: ``Error/invalidated`` on an ended session.
    public func startEmulation() async throws {
        let lifetime = NFCSessionEnvironment.shared.sessionLifetime
        let clock = NFCSessionEnvironment.shared.clock
        // The phase and its timer change together, under the lock, so a stopEmulation that runs
        // while the front is told cancels this timer.
        let start = lock.withLock { () -> Bool? in
            switch phase {
            case .ended: return nil
            case .emulating: return false
            case .started:
                phase = .emulating
                limit = Task { [weak self] in
                    guard (try? await clock.sleep(for: lifetime)) != nil else { return }
                    self?.end(.maxSessionDurationReached)
                }
                return true
            }
        }
        guard let start else { throw Error.invalidated }
        guard start else { return }
        await front.setCardPresent(true)
        // Stopped or ended meanwhile: the card goes again.
        if lock.withLock({ phase != .emulating }) { await front.setCardPresent(false) }
    }

    /// Stops emulation (readers find no card); `status` is what the system's sheet would show.
    /// The session stays valid: emulation may start again.
    public func stopEmulation(status: EmulationUIStatus) async {
        let stopped = lock.withLock { () -> Bool in
            guard phase == .emulating else { return false }
            phase = .started
            routed = false
            limit?.cancel()
            limit = nil
            return true
        }
        if stopped { await front.setCardPresent(false) }
    }

    /// Ends the session: emulation stops and the stream ends with
    /// ``Event/sessionInvalidated(reason:)`` (``Error/userInvalidated``).
    public func invalidate() {
        end(.userInvalidated)
    }

    /// Ends once: the last event, the front released, the slot freed.
    private func end(_ reason: Error) {
        let tasks = lock.withLock { () -> (Task<Void, Never>?, Task<Void, Never>?)? in
            guard phase != .ended else { return nil }
            phase = .ended
            defer {
                listener = nil
                limit = nil
            }
            return (listener, limit)
        }
        guard let tasks else { return }
        tasks.0?.cancel()
        tasks.1?.cancel()
        // Cancelling the listener ends its iteration of the front's stream: the front drops the card.
        events.yield(.sessionInvalidated(reason: reason))
        events.finish()
        CardSessionSlot.release()
    }

    private func handle(_ event: CardEmulationEvent) async {
        switch event {
        case .readerDetected:
            events.yield(.readerDetected)
        case .readerDeselected:
            lock.withLock { routed = false }
            events.yield(.readerDeselected)
        case .command(let command):
            await route(command)
        }
    }

    /// Sends a command to the app, or answers it for the system (`6A82`).
    private func route(_ command: EmulatedCommand) async {
        let bytes = command.bytes
        let (emulating, wasRouted) = lock.withLock { (phase == .emulating, routed) }
        guard emulating else {
            _ = await command.respond([0x6A, 0x82])
            return
        }
        if let aid = Self.selectedName(bytes) {
            let ours = prefixes.contains { aid.starts(with: $0) }
            lock.withLock { routed = ours }
            if ours {
                events.yield(.received(APDU(command)))
            } else {
                if wasRouted { events.yield(.readerDeselected) }
                _ = await command.respond([0x6A, 0x82])
            }
            return
        }
        if wasRouted {
            events.yield(.received(APDU(command)))
        } else {
            _ = await command.respond([0x6A, 0x82])
        }
    }

    /// The DF name of a SELECT by DF name (interindustry class, `A4 04`, ISO/IEC 7816-4
    /// §11.2.2), or nil for any other command or a truncated one.
    static func selectedName(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 5, bytes[0] & 0x80 == 0, bytes[1] == 0xA4, bytes[2] == 0x04 else { return nil }
        let length = Int(bytes[4])
        guard length > 0, bytes.count >= 5 + length else { return nil }
        return Array(bytes[5..<(5 + length)])
    }
}

/// One card session at a time, process-wide.
enum CardSessionSlot {
    private static let taken = Guarded(false)

    static func claim() -> Bool {
        taken.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
    }

    static func release() { taken.withLock { $0 = false } }
}
