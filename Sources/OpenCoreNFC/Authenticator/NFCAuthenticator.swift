import Dispatch
import Foundation
import ISO7816
import NFCBytes

/// A security key over NFC: owns a tag reader session polling ISO/IEC 14443, connects to the
/// first ISO 7816 card it finds, and runs commands on it strictly one at a time, in submission
/// order, each with its own timeout (an OpenCoreNFC addition; Core NFC has none).
///
/// - Polling: a detection holding no ISO 7816 card (an NTAG, say) restarts polling once; a
///   failed `connect(to:)` restarts polling. A lost card fails the running and queued commands
///   with ``NFCAuthenticatorError/tagConnectionLost(_:)`` and polling starts again.
/// - Commands submitted while no card is connected wait for the next card.
/// - The session ending (``stop()``, the 60 s limit, a cancel) fails every queued command with
///   ``NFCAuthenticatorError/sessionEnded(_:)``.
/// - Completions, timeout handlers and delegate calls run on ``callbackQueue``.
///
/// The authenticator is an `APDUTransmitter` (each `transmit` is one queued command), so
/// applet clients such as `OATHSession` run over it unchanged. See docs/authenticator.md.
public final class NFCAuthenticator: Sendable {
    enum Phase: Sendable {
        case idle
        case running
        case ended(NFCAuthenticatorEndReason)
    }

    // Guarded by `state` (a `Guarded` lock): every read and write goes through `state.withLock`.
    struct State {
        var phase = Phase.idle
        var session: NFCTagReaderSession?
        var bridge: AuthenticatorSessionBridge?
        var alertMessage = ""
        var connected: (tag: NFCAuthenticatorTag, epoch: UInt64)?
        var connecting = false
        /// Identifiers of non-ISO 7816 tags polling was restarted for in this session.
        var rejected: Set<Data> = []
        var nextWaiter: UInt64 = 0
        var connectWaiters: [UInt64: CheckedContinuation<NFCAuthenticatorTag, any Error>] = [:]
        var endWaiters: [UInt64: CheckedContinuation<NFCAuthenticatorEndReason?, Never>] = [:]
        weak var delegate: (any NFCAuthenticatorDelegate)?
    }

    let state = Guarded(State())
    let queue: APDUCommandQueue

    /// The AIDs the session SELECTs to recognise a card (narrowing the app's list); empty: all
    /// of the app's `com.apple.developer.nfc.readersession.iso7816.select-identifiers`.
    public let selectIdentifiers: [String]
    /// Whether extended-length APDUs are sent to the card (else long commands are chained).
    public let supportsExtendedLength: Bool
    /// The timeout of each ``transmit(_:)`` (the `APDUTransmitter` path); negative: none.
    public let transmitTimeout: Duration
    /// Where completions, timeout handlers and delegate calls run (serial).
    public let callbackQueue: DispatchQueue

    /// - Parameters:
    ///   - selectIdentifiers: AIDs (hex) the session SELECTs to recognise a card; they must be
    ///     in the app's Info.plist list. Empty: the app's whole list.
    ///   - supportsExtendedLength: Whether to send extended-length APDUs (default yes).
    ///   - transmitTimeout: The timeout of each ``transmit(_:)``; negative (default): none.
    ///   - delegate: Told of connections and of the session's end (held weakly).
    ///   - queue: The serial queue callbacks run on; nil: a private one.
    public init(
        selectIdentifiers: [String] = [], supportsExtendedLength: Bool = true, transmitTimeout: Duration = .seconds(-1),
        delegate: (any NFCAuthenticatorDelegate)? = nil, queue: DispatchQueue? = nil
    ) {
        self.selectIdentifiers = selectIdentifiers
        self.supportsExtendedLength = supportsExtendedLength
        self.transmitTimeout = transmitTimeout
        let callbackQueue = queue ?? DispatchQueue(label: "OpenCoreNFC.authenticator")
        self.callbackQueue = callbackQueue
        self.queue = APDUCommandQueue(callbackQueue: callbackQueue)
        state.withLock { $0.delegate = delegate }
        self.queue.setLinkFailureHandler { [weak self] epoch, error in self?.connectionFailed(epoch: epoch, error: error) }
    }

    deinit {
        let session = state.withLock { $0.session }
        session?.invalidate()
    }

    /// Told of connections and of the session's end (held weakly).
    public var delegate: (any NFCAuthenticatorDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Whether a session is running (polling or connected).
    public var isRunning: Bool {
        state.withLock { if case .running = $0.phase { true } else { false } }
    }

    /// The connected card, if any.
    public var connectedTag: NFCAuthenticatorTag? { state.withLock { $0.connected?.tag } }

    /// The message the session shows while scanning.
    public var alertMessage: String {
        get { state.withLock { $0.alertMessage } }
        set {
            let session = state.withLock { state -> NFCTagReaderSession? in
                state.alertMessage = newValue
                return state.session
            }
            session?.alertMessage = newValue
        }
    }

    // MARK: Lifecycle

    /// Begins a reader session and polls for a card; does nothing while one is running.
    ///
    /// A session that cannot begin (no reader, the app's configuration, another session
    /// active) ends at once: the delegate and ``ended()`` get the reason.
    public func start(alertMessage: String = "") {
        let started = state.withLock { state -> (NFCTagReaderSession, AuthenticatorSessionBridge)? in
            if case .running = state.phase { return nil }
            let bridge = AuthenticatorSessionBridge()
            let session: NFCTagReaderSession
            if selectIdentifiers.isEmpty {
                guard let made = NFCTagReaderSession(pollingOption: [.iso14443], delegate: bridge, queue: nil) else { return nil }
                session = made
            } else {
                session = NFCTagReaderSession(
                    configuration: .init(pollingOption: [.iso14443], iso7816SelectIdentifiers: selectIdentifiers), delegate: bridge,
                    queue: nil)
            }
            state.phase = .running
            state.session = session
            state.bridge = bridge
            state.alertMessage = alertMessage
            state.connected = nil
            state.connecting = false
            state.rejected = []
            return (session, bridge)
        }
        guard let (session, bridge) = started else { return }
        bridge.authenticator = self
        session.alertMessage = alertMessage
        queue.open()
        session.begin()
    }

    /// Starts a session unless one runs, and waits for a card: the async form of
    /// ``start(alertMessage:)`` followed by ``connected()``.
    @discardableResult
    public func connect(alertMessage: String = "") async throws -> NFCAuthenticatorTag {
        start(alertMessage: alertMessage)
        return try await connected()
    }

    /// Releases the connected card (its running and queued commands fail with
    /// ``NFCAuthenticatorError/pollingRestarted``) and polls again; starts a session when none runs.
    public func restart() {
        let current = state.withLock { state -> (NFCTagReaderSession, Bool)? in
            guard case .running = state.phase, let session = state.session else { return nil }
            let hadTag = state.connected != nil
            state.connected = nil
            state.connecting = false
            state.rejected = []
            return (session, hadTag)
        }
        guard let (session, hadTag) = current else {
            start(alertMessage: alertMessage)
            return
        }
        queue.detach(failing: .pollingRestarted)
        if hadTag { notify { $0.authenticator(self, didDisconnect: .pollingRestarted) } }
        session.restartPolling()
    }

    /// Ends the session; queued commands fail with `sessionEnded(.stopped)`.
    public func stop() { stop(message: nil) }

    /// Ends the session showing an error message; queued commands fail with `sessionEnded(.stopped)`.
    public func stop(errorMessage: String) { stop(message: errorMessage) }

    private func stop(message: String?) {
        guard let session = finish(reason: .stopped, ifSession: nil) else { return }
        if let message {
            session.invalidate(errorMessage: message)
        } else {
            session.invalidate()
        }
    }

    /// Waits for a connected card: at once when one is connected.
    /// - Throws: ``NFCAuthenticatorError/sessionEnded(_:)`` when the session ends first,
    ///   ``NFCAuthenticatorError/notStarted`` when none runs, `CancellationError` when the task
    ///   is cancelled.
    public func connected() async throws -> NFCAuthenticatorTag {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<NFCAuthenticatorTag, any Error>) in
                let immediate = state.withLock { state -> Result<NFCAuthenticatorTag, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    switch state.phase {
                    case .idle: return .failure(NFCAuthenticatorError.notStarted)
                    case .ended(let reason): return .failure(NFCAuthenticatorError.sessionEnded(reason))
                    case .running:
                        if let connected = state.connected { return .success(connected.tag) }
                        state.connectWaiters[id] = continuation
                        return nil
                    }
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.connectWaiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Waits for the running session to end and returns why; the last reason at once when none
    /// runs, nil when the authenticator never started.
    public func ended() async -> NFCAuthenticatorEndReason? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<NFCAuthenticatorEndReason?, Never>) in
                let immediate = state.withLock { state -> NFCAuthenticatorEndReason?? in
                    switch state.phase {
                    case .idle: return .some(nil)
                    case .ended(let reason): return .some(reason)
                    case .running:
                        if Task.isCancelled { return .some(nil) }
                        state.endWaiters[id] = continuation
                        return .none
                    }
                }
                if case .some(let reason) = immediate { continuation.resume(returning: reason) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.endWaiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    // MARK: From the session

    /// Tags found: connect to the first ISO 7816 card, or poll again.
    func detected(_ tags: [NFCTag], in session: NFCTagReaderSession) {
        enum Action { case connect(NFCTag), restart, wait }
        let card = tags.first { if case .iso7816 = $0 { true } else { false } }
        let action = state.withLock { state -> Action in
            guard case .running = state.phase, state.session === session, state.connected == nil, !state.connecting else { return .wait }
            if let card {
                state.connecting = true
                return .connect(card)
            }
            // Restart once for tags not seen before: a tag that stays in the field is found
            // again at once, and restarting for it again would spin.
            let identifiers = Set(tags.map(Self.identifier))
            if identifiers.isSubset(of: state.rejected) { return .wait }
            state.rejected.formUnion(identifiers)
            return .restart
        }
        switch action {
        case .connect(let card): Task { await self.connect(card, in: session) }
        case .restart:
            session.restartPolling()
            notify { $0.authenticator(self, didRestartPolling: .noISO7816Tag(tags.map(\.type))) }
        case .wait:
            // Polling stays stopped after a delivery until restartPolling (as on a phone): the
            // next tag that arrives, or one that leaves, restarts it.
            session.restartPollingOnFieldChange()
        }
    }

    /// Connects to a detected card; on failure polls again.
    func connect(_ card: NFCTag, in session: NFCTagReaderSession) async {
        guard case .iso7816(let iso) = card else { return }
        do {
            try await session.connect(to: card)
        } catch {
            let current = state.withLock { state -> Bool in
                state.connecting = false
                if case .running = state.phase, state.session === session { return true }
                return false
            }
            guard current else { return }
            let reason = (error as? NFCReaderError)?.failureReasonText ?? "\(error)"
            session.restartPolling()
            notify { $0.authenticator(self, didRestartPolling: .connectionFailed(reason)) }
            return
        }
        let transmitter = NFCISO7816TagTransmitter(tag: iso, supportsExtendedLength: supportsExtendedLength)
        let info = NFCAuthenticatorTag(iso)
        let waiters = state.withLock { state -> [CheckedContinuation<NFCAuthenticatorTag, any Error>]? in
            state.connecting = false
            guard case .running = state.phase, state.session === session else { return nil }
            // Told before any command can fail on the card, so the delegate hears of the
            // connection before its loss.
            notify { $0.authenticator(self, didConnect: info) }
            let epoch = queue.attach(transmitter)
            state.connected = (info, epoch)
            state.rejected = []
            let waiters = Array(state.connectWaiters.values)
            state.connectWaiters = [:]
            return waiters
        }
        guard let waiters else { return }
        for waiter in waiters { waiter.resume(returning: info) }
    }

    /// A command found its card gone. While the session is active the card was lost: fail the
    /// queue and poll again. When the session is ending, its invalidation fails the queue with
    /// the session's reason.
    func connectionFailed(epoch: UInt64, error: NFCReaderError) {
        let session = state.withLock { state -> NFCTagReaderSession? in
            guard case .running = state.phase, let session = state.session, session.isReady else { return nil }
            return session
        }
        guard let session else { return }
        let failure = NFCAuthenticatorError.tagConnectionLost(error.failureReasonText)
        guard queue.detach(epoch: epoch, failing: failure) else { return }
        let wasCurrent = state.withLock { state -> Bool in
            guard state.connected?.epoch == epoch else { return false }
            state.connected = nil
            state.rejected = []
            return true
        }
        guard wasCurrent else { return }
        notify { $0.authenticator(self, didDisconnect: failure) }
        session.restartPolling()
        notify { $0.authenticator(self, didRestartPolling: .tagLost) }
    }

    /// The session ended (its delegate's `didInvalidateWithError`).
    func sessionEnded(_ session: NFCTagReaderSession, error: any Error) {
        _ = finish(reason: NFCAuthenticatorEndReason(sessionError: error), ifSession: session)
    }

    /// Ends the running session's bookkeeping once: fails the queue, wakes waiters, tells the
    /// delegate. Returns the session when it was running (and is `expected`, when given).
    private func finish(reason: NFCAuthenticatorEndReason, ifSession expected: NFCTagReaderSession?) -> NFCTagReaderSession? {
        let taken = state.withLock {
            state -> (
                NFCTagReaderSession, [CheckedContinuation<NFCAuthenticatorTag, any Error>],
                [CheckedContinuation<NFCAuthenticatorEndReason?, Never>]
            )? in
            guard case .running = state.phase, let session = state.session else { return nil }
            if let expected, expected !== session { return nil }
            state.phase = .ended(reason)
            state.session = nil
            state.bridge = nil
            state.connected = nil
            state.connecting = false
            let connectWaiters = Array(state.connectWaiters.values)
            let endWaiters = Array(state.endWaiters.values)
            state.connectWaiters = [:]
            state.endWaiters = [:]
            return (session, connectWaiters, endWaiters)
        }
        guard let (session, connectWaiters, endWaiters) = taken else { return nil }
        queue.close(failing: .sessionEnded(reason))
        for waiter in connectWaiters { waiter.resume(throwing: NFCAuthenticatorError.sessionEnded(reason)) }
        for waiter in endWaiters { waiter.resume(returning: reason) }
        notify { $0.authenticator(self, didEndWith: reason) }
        return session
    }

    /// Calls the delegate on the callback queue.
    func notify(_ call: @escaping @Sendable (any NFCAuthenticatorDelegate) -> Void) {
        callbackQueue.async {
            guard let delegate = self.delegate else { return }
            call(delegate)
        }
    }

    static func identifier(_ tag: NFCTag) -> Data {
        switch tag {
        case .feliCa(let t): t.currentIDm
        case .iso7816(let t): t.identifier
        case .iso15693(let t): t.identifier
        case .miFare(let t): t.identifier
        @unknown default: Data()
        }
    }
}

/// The session's delegate: forwards to the authenticator without the authenticator being an
/// `NSObject` or exposing the session's delegate methods.
final class AuthenticatorSessionBridge: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    // Set once, before the session begins.
    weak var authenticator: NFCAuthenticator?

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {}

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        authenticator?.sessionEnded(session, error: error)
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        authenticator?.detected(tags, in: session)
    }
}
