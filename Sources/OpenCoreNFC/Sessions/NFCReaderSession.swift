import Dispatch
import Foundation
import Logging
import NFCTags
import NFCTransport

/// What every reader session offers (Core NFC's `NFCReaderSessionProtocol`).
@preconcurrency
public protocol NFCReaderSessionProtocol: NSObjectProtocol {
    /// Whether the session is started and polling.
    var isReady: Bool { get }
    /// The message iOS shows on its scanning sheet; kept here for source compatibility.
    var alertMessage: String { get set }
    /// Starts the session.
    func begin()
    /// Ends the session; the delegate is told with `readerSessionInvalidationErrorUserCanceled`.
    func invalidate()
    /// Ends the session with a message for the user.
    func invalidate(errorMessage: String)
}

/// The base of Core NFC's reader sessions: lifecycle, the one-session rule, the 60-second
/// limit, polling and the tags it has handed out.
///
/// Lifecycle (as on iOS): `begin()` claims the reader (a second active session is refused with
/// `readerSessionInvalidationErrorSystemIsBusy`), tells the delegate it became active, and polls;
/// the session ends by `invalidate()`, after ``NFCSessionEnvironment/sessionLifetime`` (60 s,
/// `readerSessionInvalidationErrorSessionTimeout`), or on an error, and never starts again.
/// Delegate calls arrive on the queue given at creation, or on a private serial queue.
@available(iOS 11.0, *)
open class NFCReaderSession: NSObject, NFCReaderSessionProtocol, @unchecked Sendable {
    // The lifecycle lives in `machine` (``SessionStateMachine``), guarded by `lock` with the
    // alert message; each event's actions run outside the lock. Delegate calls happen on
    // `sessionQueue`.
    let lock = NSLock()
    var machine: SessionStateMachine
    private var message = ""
    private weak var weakDelegate: AnyObject?
    /// Air time and commands of this session.
    let meter = AirTimeMeter()

    /// Whether this device can read tags: here, whether a reader driver is available.
    ///
    /// False when `OPENCORENFC_READER` names no usable reader or no driver is injected;
    /// ``NFCSessionEnvironment/readerProblem`` says why, and `begin()` ends the session with
    /// that reason in its `readerErrorUnsupportedFeature`.
    open class var readingAvailable: Bool { NFCSessionEnvironment.shared.driver != nil }

    /// The queue delegate calls and completion handlers run on.
    public let sessionQueue: DispatchQueue

    /// The session's delegate, held weakly as Core NFC holds it (`NFCReaderSession.h`:
    /// `@property (nonatomic, weak, readonly) id delegate`): the app keeps its delegate alive.
    public var delegate: AnyObject? { lock.withLock { weakDelegate } }

    init(delegate: AnyObject, queue: DispatchQueue?, technologies: TechnologyMask, mode: SessionStateMachine.DeliveryMode) {
        self.weakDelegate = delegate
        self.sessionQueue = queue ?? DispatchQueue(label: "OpenCoreNFC.session")
        self.machine = SessionStateMachine(technologies: technologies, mode: mode)
        super.init()
    }

    /// True once the session is active — set just before `readerSessionDidBecomeActive` reaches
    /// the delegate — until it ends (Apple's `ready`: "started and ready to use"); false before
    /// and for good after.
    public var isReady: Bool { lock.withLock { machine.isReady } }

    /// The text iOS shows on its scanning sheet. Kept and readable, but shown nowhere here: there is no system sheet.
    public var alertMessage: String {
        get { lock.withLock { message } }
        set { lock.withLock { message = newValue } }
    }

    /// Starts the session, as Apple's does: the delegate is told it became active, then polling starts.
    /// Does nothing on a session already begun or ended.
    ///
    /// The session ends at once, through the delegate, when the app's configuration forbids it (`readerErrorSecurityViolation`
    /// when there is none), when no reader is set (`readerErrorUnsupportedFeature`), or when another session is active
    /// (`readerSessionInvalidationErrorSystemIsBusy`; iOS may queue it instead).
    public func begin() {
        guard lock.withLock({ machine.begin() }) else { return }  // begin on a started or ended session does nothing
        SessionLog.logger.debug("\(type(of: self)) begins")
        if let refusal = configurationRefusal() {
            end(with: refusal)
            return
        }
        guard let driver = NFCSessionEnvironment.shared.driver else {
            let reason = NFCSessionEnvironment.shared.readerProblem ?? "no NFC reader: inject a driver or set OPENCORENFC_READER"
            end(with: NFCReaderError(.readerErrorUnsupportedFeature, reason: reason))
            return
        }
        SessionLog.logger.debug("\(type(of: self)) polls \(driver.name)")
        guard SessionCoordinator.shared.claim(self) else {
            end(
                with: NFCReaderError(.readerSessionInvalidationErrorSystemIsBusy, reason: "another reader session is active"),
                release: false)
            return
        }
        let lifetime = NFCSessionEnvironment.shared.sessionLifetime
        let clock = NFCSessionEnvironment.shared.clock
        let timeout = Task { [weak self] in
            do {
                try await Self.sleep(on: clock, for: lifetime)
            } catch {
                return
            }
            self?.end(
                with: NFCReaderError(.readerSessionInvalidationErrorSessionTimeout, reason: "the session reached its \(lifetime) limit"))
        }
        // Polling starts once the delegate has been told the session is active, so no tag
        // reaches it before `readerSessionDidBecomeActive`.
        let (polling, ready) = AsyncStream<Void>.makeStream()
        let poller = Task { [weak self] in
            for await _ in polling { break }
            if Task.isCancelled { return }
            let events = await driver.events(matching: .all)
            for await event in events {
                guard let self else { return }
                let action: SessionStateMachine.FieldAction
                switch event {
                case .targetArrived(let target):
                    action = self.lock.withLock { self.machine.targetArrived(target.handle) }
                case .targetLeft(let target):
                    let (connection, next) = self.lock.withLock { self.machine.targetLeft(target.handle) }
                    if let connection { await connection.disconnect() }
                    action = next
                }
                switch action {
                case .none: break
                case .scan: await self.scan()
                case .restart: self.restartPollingRound()
                }
                if Task.isCancelled { return }
            }
        }
        // `end` may have run since `begin` (an `invalidate()` from another thread): then the
        // tasks are cancelled and the claim released here.
        guard lock.withLock({ machine.activate(driver: driver, tasks: [timeout, poller]) }) else {
            timeout.cancel()
            poller.cancel()
            SessionCoordinator.shared.release(self)
            return
        }
        sessionQueue.async {
            let tell = self.lock.withLock { self.machine.becomeReady() }
            if tell { self.notifyBecameActive() }
            ready.yield()
            ready.finish()
        }
    }

    /// Ends the session: polling stops, connections close, and the delegate is told with `readerSessionInvalidationErrorUserCanceled`.
    /// Does nothing on a session already ended.
    public func invalidate() {
        end(with: NFCReaderError(.readerSessionInvalidationErrorUserCanceled, reason: "the session was invalidated"))
    }

    /// Ends the session as ``invalidate()`` does. iOS shows `errorMessage` on its sheet; here it becomes the error's failure reason.
    public func invalidate(errorMessage: String) {
        end(with: NFCReaderError(.readerSessionInvalidationErrorUserCanceled, reason: errorMessage))
    }

    // MARK: For the subclasses

    /// A reason the app's configuration forbids this session, checked at `begin()`.
    func configurationRefusal() -> NFCReaderError? { nil }

    /// Tells the delegate the session became active (on `sessionQueue`).
    func notifyBecameActive() {}

    /// Tells the delegate the session ended (on `sessionQueue`).
    func notifyInvalidated(_ error: NFCReaderError) {}

    /// Handles targets newly seen in this polling round.
    func didDetect(_ targets: [TargetInfo], generation: Int) async {}

    /// Ends the session once: stops polling and the timer, closes connections, releases the
    /// reader, and tells the delegate.
    func end(with error: NFCReaderError, release: Bool = true) {
        guard let ending = lock.withLock({ machine.end() }) else { return }
        SessionLog.logger.debug("\(type(of: self)) invalidated: \(error.code) \(error.localizedDescription)")
        for task in ending.tasks { task.cancel() }
        if release { SessionCoordinator.shared.release(self) }
        if !ending.connections.isEmpty {
            let open = ending.connections
            Task { for connection in open { await connection.disconnect() } }
        }
        sessionQueue.async { self.notifyInvalidated(error) }
    }

    /// Polls the field and hands new targets to the subclass.
    ///
    /// A scan that `restartPolling` overtook while it waited on the reader is dropped: it polled
    /// the earlier round's technologies, and its targets would be delivered as the new round's
    /// (a tag of a technology no longer polled, after `restartPolling(configuration:)`). The
    /// restart starts a scan of its own.
    func scan() async {
        guard let (driver, mask, startRound) = lock.withLock({ machine.scanStart() }) else { return }
        guard let targets = try? await driver.targets(matching: mask) else { return }
        let fresh = lock.withLock { machine.scanned(targets, startRound: startRound) }
        if !fresh.isEmpty { await didDetect(fresh, generation: startRound) }
    }

    /// The technologies polled now.
    var technologies: TechnologyMask { lock.withLock { machine.technologies } }

    /// Starts a new polling round: tags handed out before become unavailable, and tags in the
    /// field are detected again (with new technologies when given). No effect where the state
    /// machine says so (a session not active, a read-only NDEF session).
    func restartPollingRound(technologies newTechnologies: TechnologyMask? = nil) {
        guard let open = lock.withLock({ machine.restartPolling(technologies: newTechnologies) }) else { return }
        if !open.isEmpty {
            Task { for connection in open { await connection.disconnect() } }
        }
        Task { await self.scan() }
    }

    /// A command found a target gone: the machine hears of it as of a tag-left event.
    func targetWentAway(_ target: TargetInfo) async {
        let (connection, action) = lock.withLock { machine.targetLeft(target.handle) }
        if let connection { await connection.disconnect() }
        if action == .restart { restartPollingRound() }
    }

    /// Restarts polling at the next change in the field (``SessionStateMachine/restartOnFieldChange()``).
    func restartPollingOnFieldChange() {
        if lock.withLock({ machine.restartOnFieldChange() }) { restartPollingRound() }
    }

    /// Lets polling go on after a scan whose targets were all skipped.
    func resumePolling(round: Int) {
        guard lock.withLock({ machine.resumePolling(round: round) }) else { return }
        Task { await self.scan() }
    }

    /// Tells the machine how the app takes tags (NDEF sessions learn it at the first delivery),
    /// and scans for tags that arrived while polling waited for it.
    func resolveDeliveryMode(_ mode: SessionStateMachine.DeliveryMode) {
        guard lock.withLock({ machine.resolveMode(mode) }) else { return }
        Task { await self.scan() }
    }

    /// Connects to a target for this session (reusing an open connection).
    func connection(for target: TargetInfo, generation tagGeneration: Int) async throws(NFCReaderError) -> any TagConnection {
        try checkUsable(target, generation: tagGeneration, requireConnected: false)
        let (existing, driver) = lock.withLock { (machine.connection(for: target.handle), machine.driver) }
        if let existing { return existing }
        guard let driver else { throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "no reader") }
        let connection: any TagConnection
        do throws(TransportError) {
            connection = try await driver.connect(to: target, meter: meter)
        } catch {
            throw ErrorMapping.transceiveError(error)
        }
        if let unused = lock.withLock({ machine.opened(connection, for: target.handle, round: tagGeneration) }) {
            // The round or the session ended, or the tag left, while it connected.
            await unused.disconnect()
            if let existing = lock.withLock({ machine.connection(for: target.handle) }) { return existing }
            try checkUsable(target, generation: tagGeneration, requireConnected: false)
            throw NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: "the tag left while it was connected")
        }
        return connection
    }

    /// Checks that a tag may be used now: session active, same polling round, in the field, and
    /// (when the session requires it) connected.
    func checkUsable(_ target: TargetInfo, generation tagGeneration: Int, requireConnected: Bool) throws(NFCReaderError) {
        let problem = lock.withLock { machine.usability(of: target.handle, round: tagGeneration, requireConnected: requireConnected) }
        if let problem { throw problem }
    }

    /// Marks a target as the connected one.
    func markConnected(_ target: TargetInfo, generation tagGeneration: Int) {
        lock.withLock { machine.markConnected(target.handle, round: tagGeneration) }
    }

    /// Whether a tag from a polling round is available: the session active, its round, in the
    /// field, and no other tag connected.
    func isCurrent(_ target: TargetInfo, generation tagGeneration: Int) -> Bool {
        lock.withLock { machine.isAvailable(target.handle, round: tagGeneration) }
    }

    static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }
}
