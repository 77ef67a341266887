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
    // Mutable state is guarded by `lock`; delegate calls happen on `sessionQueue`.
    enum State { case idle, active, invalidated }

    let lock = NSLock()
    var state = State.idle
    var generation = 0
    var delivered: Set<UInt64> = []
    var connections: [UInt64: any TagConnection] = [:]
    var connectedHandle: UInt64?
    var pollingTask: Task<Void, Never>?
    var timeoutTask: Task<Void, Never>?
    var driver: (any ReaderDriver)?
    private var message = ""
    private var retainedDelegate: AnyObject?
    private var polledTechnologies: TechnologyMask
    /// Air time and commands of this session.
    let meter = AirTimeMeter()

    /// Whether this device can read tags: here, whether a reader driver is available.
    open class var readingAvailable: Bool { NFCSessionEnvironment.shared.driver != nil }

    /// The queue delegate calls and completion handlers run on.
    public let sessionQueue: DispatchQueue

    /// The session's delegate (held until the session is invalidated, as Core NFC does).
    public var delegate: AnyObject? { lock.withLock { retainedDelegate } }

    init(delegate: AnyObject, queue: DispatchQueue?, technologies: TechnologyMask) {
        self.retainedDelegate = delegate
        self.sessionQueue = queue ?? DispatchQueue(label: "OpenCoreNFC.session")
        self.polledTechnologies = technologies
        super.init()
    }

    /// True from ``begin()`` until the session ends, as Apple's; false before `begin()` and for good after.
    public var isReady: Bool { lock.withLock { state == .active } }

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
        let startable = lock.withLock { () -> Bool in
            guard state == .idle else { return false }
            state = .active
            return true
        }
        guard startable else { return }  // begin on a started or ended session does nothing
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
        // An `invalidate()` from another thread may have ended the session since it was marked
        // active. Start it only if it is still active, under the lock, so that `end` (which
        // takes the lock first) sees the tasks to cancel, and "became active" is queued before
        // any "invalidated".
        let started = lock.withLock { () -> Bool in
            guard state == .active else { return false }
            self.driver = driver
            sessionQueue.async { self.notifyBecameActive() }
            timeoutTask = Task { [weak self] in
                do {
                    try await Self.sleep(on: clock, for: lifetime)
                } catch {
                    return
                }
                self?.end(
                    with: NFCReaderError(.readerSessionInvalidationErrorSessionTimeout, reason: "the session reached its \(lifetime) limit")
                )
            }
            pollingTask = Task { [weak self] in
                // Watch every technology; `scan` filters by the polled ones, which restartPolling
                // may change.
                let events = await driver.events(matching: .all)
                for await event in events {
                    guard let self, self.isReady else { return }
                    if case .targetArrived = event { await self.scan() }
                }
            }
            return true
        }
        // Ended before it started: the claim made after `end` released the reader is released here.
        if !started { SessionCoordinator.shared.release(self) }
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
        lock.lock()
        guard state != .invalidated else {
            lock.unlock()
            return
        }
        state = .invalidated
        SessionLog.logger.debug("\(type(of: self)) invalidated: \(error.code) \(error.localizedDescription)")
        let tasks: [Task<Void, Never>] = [pollingTask, timeoutTask].compactMap { $0 }
        pollingTask = nil
        timeoutTask = nil
        let open: [any TagConnection] = Array(connections.values)
        connections = [:]
        connectedHandle = nil
        lock.unlock()
        for task in tasks { task.cancel() }
        if release { SessionCoordinator.shared.release(self) }
        if !open.isEmpty {
            Task { for connection in open { await connection.disconnect() } }
        }
        sessionQueue.async {
            self.notifyInvalidated(error)
            self.lock.withLock { self.retainedDelegate = nil }
        }
    }

    /// Polls the field and hands new targets to the subclass.
    ///
    /// A scan that `restartPolling` overtook while it waited on the reader is dropped: it polled
    /// the earlier round's technologies, and its targets would be delivered as the new round's
    /// (a tag of a technology no longer polled, after `restartPolling(configuration:)`). The
    /// restart starts a scan of its own.
    func scan() async {
        guard
            let (driver, mask, startRound) = lock.withLock({ () -> ((any ReaderDriver), TechnologyMask, Int)? in
                guard state == .active, let driver else { return nil }
                return (driver, polledTechnologies, generation)
            })
        else { return }
        guard let targets = try? await driver.targets(matching: mask) else { return }
        let (fresh, round) = lock.withLock { () -> ([TargetInfo], Int) in
            guard generation == startRound else { return ([], generation) }
            let fresh = targets.filter { !delivered.contains($0.handle) }
            for target in fresh { delivered.insert(target.handle) }
            return (fresh, generation)
        }
        if !fresh.isEmpty { await didDetect(fresh, generation: round) }
    }

    /// The technologies polled now.
    var technologies: TechnologyMask { lock.withLock { polledTechnologies } }

    /// Starts a new polling round: tags handed out before become unavailable, and tags in the
    /// field are detected again (with new technologies when given).
    func restartPollingRound(technologies newTechnologies: TechnologyMask? = nil) {
        let (active, open) = lock.withLock { () -> (Bool, [any TagConnection]) in
            guard state == .active else { return (false, []) }
            if let newTechnologies { polledTechnologies = newTechnologies }
            generation += 1
            delivered = []
            connectedHandle = nil
            // Connections of the earlier round are closed: a tag detected again is activated
            // again when connected (it may have left and come back in between).
            let open = Array(connections.values)
            connections = [:]
            return (true, open)
        }
        guard active else { return }
        if !open.isEmpty {
            Task { for connection in open { await connection.disconnect() } }
        }
        Task { await self.scan() }
    }

    /// Connects to a target for this session (reusing an open connection).
    func connection(for target: TargetInfo, generation tagGeneration: Int) async throws(NFCReaderError) -> any TagConnection {
        try checkUsable(target, generation: tagGeneration, requireConnected: false)
        let (existing, driver) = lock.withLock { (connections[target.handle], self.driver) }
        if let existing { return existing }
        guard let driver else { throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "no reader") }
        do throws(TransportError) {
            let connection = try await driver.connect(to: target, meter: meter)
            lock.withLock { connections[target.handle] = connection }
            return connection
        } catch {
            throw ErrorMapping.transceiveError(error)
        }
    }

    /// Checks that a tag may be used now: session active, same polling round, and (when the
    /// session requires it) connected.
    func checkUsable(_ target: TargetInfo, generation tagGeneration: Int, requireConnected: Bool) throws(NFCReaderError) {
        lock.lock()
        defer { lock.unlock() }
        guard state == .active else { throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "the session is not active") }
        guard tagGeneration == generation else {
            throw NFCReaderError(.readerTransceiveErrorTagNotConnected, reason: "the tag belongs to an earlier polling round")
        }
        if requireConnected, connectedHandle != target.handle {
            throw NFCReaderError(.readerTransceiveErrorTagNotConnected, reason: "connect(to:) the tag first")
        }
    }

    /// Marks a target as the connected one.
    func markConnected(_ target: TargetInfo) {
        lock.withLock { connectedHandle = target.handle }
    }

    /// Whether a tag from a polling round is still usable.
    func isCurrent(_ target: TargetInfo, generation tagGeneration: Int) -> Bool {
        lock.withLock { state == .active && tagGeneration == generation }
    }

    static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
    }
}
