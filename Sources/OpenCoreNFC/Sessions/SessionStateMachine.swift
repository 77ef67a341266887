import NFCTransport

/// The lifecycle of a reader session as a value: each event returns what the session must do,
/// and the session does it outside its lock (the shape of swift-nio's `NIOAsyncWriter` state
/// machine). `NFCReaderSession` keeps one of these behind its lock and nothing else mutable.
///
/// The rules it holds, each from Apple's documentation:
/// - `begin()` starts a session once; an ended session never starts again (`NFCReaderSession.h`).
/// - ``isReady`` becomes true when the session becomes active, just before
///   `readerSessionDidBecomeActive`, and false for good when it ends.
/// - A tag is available only while the session is active, in the polling round that found it,
///   while it is in the field, and while no other tag is the connected one
///   (`NFCTag.h`, `available`: "tag is available in the current reader session").
/// - After tags are handed to `didDetect tags`, polling stops until `restartPolling()`
///   (`NFCTagReaderSession.h`, `restartPolling`: "restart the polling sequence … to discover new
///   tags"); a read-only NDEF session reads on, and reads a tag again once it has been removed
///   ("polling is automatically restarted once the detected tag is removed from the RF field",
///   `NFCNDEFReaderSession.h`), where `restartPolling()` has no effect.
/// - `restartPolling()` invalidates the tags handed out before and closes their connections.
struct SessionStateMachine {
    /// Where the session is in its life.
    enum Phase: Equatable, Sendable {
        /// Made, `begin()` not called.
        case idle
        /// `begin()` called: the configuration is being checked and the reader claimed.
        case starting
        /// Polling (``SessionStateMachine/isReady`` turns true when the delegate is told).
        case active
        /// Ended; it never starts again.
        case invalidated
    }

    /// How the session goes on polling once it has handed tags to the app.
    enum DeliveryMode: Equatable, Sendable {
        /// Not known yet: an NDEF session learns at its first delivery whether the app reads tags
        /// itself. Polling pauses after a delivery until it is known.
        case unknown
        /// Polling stops after a delivery until `restartPolling()` (tag sessions, NDEF sessions
        /// whose delegate takes the tags).
        case pauseUntilRestart
        /// Polling goes on; a delivered tag is found again once it has left the field
        /// (NDEF sessions that read messages for the app).
        case automaticRestart
    }

    /// What ending the session leaves to do.
    struct Ending {
        /// The polling and time-out tasks to cancel.
        var tasks: [Task<Void, Never>]
        /// The connections to close.
        var connections: [any TagConnection]
    }

    private(set) var phase = Phase.idle
    /// Whether the delegate has been told the session is active, and the session not ended since.
    private(set) var isReady = false
    /// The polling round; tags carry the round that found them.
    private(set) var round = 0
    /// The technologies polled now.
    private(set) var technologies: TechnologyMask
    private(set) var mode: DeliveryMode
    /// The tag connected with `connect(to:)` in this round.
    private(set) var connectedHandle: UInt64?
    /// Whether polling waits for `restartPolling()`.
    private(set) var isPaused = false
    private(set) var driver: (any ReaderDriver)?
    private var delivered: Set<UInt64> = []
    private var present: Set<UInt64> = []
    private var connections: [UInt64: any TagConnection] = [:]
    private var tasks: [Task<Void, Never>] = []
    private var restartArmed = false
    /// Whether the field changed while polling was paused.
    private var fieldChanged = false

    init(technologies: TechnologyMask, mode: DeliveryMode) {
        self.technologies = technologies
        self.mode = mode
    }

    // MARK: Starting and ending

    /// `begin()`: true when the session should check its configuration and claim the reader.
    mutating func begin() -> Bool {
        guard phase == .idle else { return false }
        phase = .starting
        return true
    }

    /// The reader was claimed: the session is active with `driver`, its tasks are kept for the
    /// end. False (nothing kept) when it ended meanwhile; the caller cancels the tasks and
    /// releases the claim.
    mutating func activate(driver: any ReaderDriver, tasks: [Task<Void, Never>]) -> Bool {
        guard phase == .starting else { return false }
        phase = .active
        self.driver = driver
        self.tasks = tasks
        return true
    }

    /// The delegate is about to be told the session became active: true when it should be
    /// (the session has not ended since).
    mutating func becomeReady() -> Bool {
        guard phase == .active else { return false }
        isReady = true
        return true
    }

    /// The session ends (invalidate, time-out, error): what to stop, or nil when it had ended already.
    mutating func end() -> Ending? {
        guard phase != .invalidated else { return nil }
        phase = .invalidated
        isReady = false
        let ending = Ending(tasks: tasks, connections: Array(connections.values))
        tasks = []
        connections = [:]
        connectedHandle = nil
        delivered = []
        driver = nil
        return ending
    }

    // MARK: The field

    /// What a change in the field asks of the session.
    enum FieldAction: Equatable {
        /// Nothing.
        case none
        /// Scan for the new target.
        case scan
        /// Restart polling (armed by ``restartOnFieldChange()``).
        case restart
    }

    /// A target entered the field.
    mutating func targetArrived(_ handle: UInt64) -> FieldAction {
        present.insert(handle)
        guard phase == .active else { return .none }
        if restartArmed {
            restartArmed = false
            return .restart
        }
        if isPaused {
            fieldChanged = true
            return .none
        }
        return .scan
    }

    /// A target left the field: it is no longer available, its connection (returned, to close)
    /// is gone, and in a read-only NDEF session it will be read again when it comes back.
    mutating func targetLeft(_ handle: UInt64) -> (connection: (any TagConnection)?, action: FieldAction) {
        present.remove(handle)
        delivered.remove(handle)
        let connection = connections.removeValue(forKey: handle)
        if isPaused { fieldChanged = true }
        guard phase == .active, restartArmed else { return (connection, .none) }
        restartArmed = false
        return (connection, .restart)
    }

    /// Polling restarts at the next change in the field (a target arrives or leaves). For
    /// ``NFCAuthenticator``, which waits for another card while a tag it cannot use rests in the
    /// field: restarting at once would find the resting tag again and spin.
    /// True when the field has changed already since polling paused (a target arrived or left
    /// meanwhile, or a scan found one it could not deliver): the caller restarts now.
    mutating func restartOnFieldChange() -> Bool {
        guard phase == .active else { return false }
        if isPaused, fieldChanged { return true }
        restartArmed = true
        return false
    }

    /// A scan may start: the reader, the technologies to poll and the round, or nil when the
    /// session is not polling.
    func scanStart() -> (driver: any ReaderDriver, technologies: TechnologyMask, round: Int)? {
        guard phase == .active, !isPaused, let driver else { return nil }
        return (driver, technologies, round)
    }

    /// A scan started in `startRound` found `targets`: those to hand to the app now (none when
    /// `restartPolling` overtook the scan, or polling paused meanwhile). After a delivery,
    /// polling pauses unless the session reads on by itself.
    mutating func scanned(_ targets: [TargetInfo], startRound: Int) -> [TargetInfo] {
        for target in targets { present.insert(target.handle) }
        guard phase == .active, round == startRound else { return [] }
        let fresh = targets.filter { !delivered.contains($0.handle) }
        guard !isPaused else {
            // Found while polling waits for restartPolling: not delivered, but remembered.
            if !fresh.isEmpty { fieldChanged = true }
            return []
        }
        for target in fresh { delivered.insert(target.handle) }
        if !fresh.isEmpty, mode != .automaticRestart {
            isPaused = true
            fieldChanged = false
        }
        return fresh
    }

    /// The tags of a scan were all skipped (Core NFC would deliver none of them): polling goes
    /// on in that round. True when it resumed (the caller scans for tags that arrived meanwhile).
    mutating func resumePolling(round scanRound: Int) -> Bool {
        guard phase == .active, scanRound == round, isPaused else { return false }
        isPaused = false
        return true
    }

    /// An NDEF session learned how the app takes tags. True when polling resumed and tags that
    /// arrived while it waited should be scanned for.
    mutating func resolveMode(_ resolved: DeliveryMode) -> Bool {
        guard mode == .unknown, resolved != .unknown else { return false }
        mode = resolved
        guard resolved == .automaticRestart, isPaused else { return false }
        isPaused = false
        return phase == .active
    }

    /// `restartPolling()`: a new round (tags handed out before become unavailable), new
    /// technologies when given. Returns the connections of the old round to close, or nil when
    /// nothing restarts (the session is not active, or it reads NDEF by itself, where Apple's
    /// restartPolling has no effect).
    mutating func restartPolling(technologies newTechnologies: TechnologyMask? = nil) -> [any TagConnection]? {
        guard phase == .active, mode != .automaticRestart else { return nil }
        if let newTechnologies { technologies = newTechnologies }
        round += 1
        delivered = []
        connectedHandle = nil
        isPaused = false
        restartArmed = false
        fieldChanged = false
        let open = Array(connections.values)
        connections = [:]
        return open
    }

    // MARK: Tags

    /// Why a tag of `tagRound` may not be used now, or nil when it may.
    func usability(of handle: UInt64, round tagRound: Int, requireConnected: Bool) -> NFCReaderError? {
        guard phase == .active else {
            return NFCReaderError(.readerTransceiveErrorSessionInvalidated, reason: "the session is not active")
        }
        guard tagRound == round else {
            return NFCReaderError(.readerTransceiveErrorTagNotConnected, reason: "the tag belongs to an earlier polling round")
        }
        guard present.contains(handle) else {
            return NFCReaderError(.readerTransceiveErrorTagConnectionLost, reason: "the tag has left the field")
        }
        if requireConnected, connectedHandle != handle {
            return NFCReaderError(.readerTransceiveErrorTagNotConnected, reason: "connect(to:) the tag first")
        }
        return nil
    }

    /// Whether a tag is available: session active, its round, in the field, and no other tag connected.
    func isAvailable(_ handle: UInt64, round tagRound: Int) -> Bool {
        phase == .active && tagRound == round && present.contains(handle) && (connectedHandle == nil || connectedHandle == handle)
    }

    /// The open connection to a tag, if any.
    func connection(for handle: UInt64) -> (any TagConnection)? { connections[handle] }

    /// A connection was opened for a tag of `tagRound`: kept (nil returned), or returned to be
    /// closed when the round or the session ended, or the tag left, while it opened.
    mutating func opened(_ connection: any TagConnection, for handle: UInt64, round tagRound: Int) -> (any TagConnection)? {
        guard phase == .active, tagRound == round, present.contains(handle) else { return connection }
        if let existing = connections[handle], existing !== connection { return connection }
        connections[handle] = connection
        return nil
    }

    /// `connect(to:)` succeeded for a tag.
    mutating func markConnected(_ handle: UInt64, round tagRound: Int) {
        guard phase == .active, tagRound == round else { return }
        connectedHandle = handle
    }
}
