import Foundation

/// One reader session at a time in the process, as on iOS.
///
/// A second session that begins while one is active is invalidated with
/// `readerSessionInvalidationErrorSystemIsBusy`.
final class SessionCoordinator: @unchecked Sendable {
    // `active` is guarded by `lock`.
    private let lock = NSLock()
    private var active: ObjectIdentifier?
    private weak var activeSession: NFCReaderSession?

    static let shared = SessionCoordinator()

    /// Claims the reader for a session; false when another session holds it.
    func claim(_ session: NFCReaderSession) -> Bool {
        lock.withLock {
            if let active, active != ObjectIdentifier(session), activeSession != nil { return false }
            active = ObjectIdentifier(session)
            activeSession = session
            return true
        }
    }

    /// Ends the active session, if any (the environment's `reset()`).
    func endActiveSession() {
        let session = lock.withLock { activeSession }
        session?.end(
            with: NFCReaderError(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, reason: "the environment was reset"))
    }

    /// Whether a session holds the reader now.
    var hasActiveSession: Bool {
        lock.withLock { active != nil && activeSession != nil }
    }

    /// Releases the reader if this session holds it.
    func release(_ session: AnyObject) {
        lock.withLock {
            if active == ObjectIdentifier(session) {
                active = nil
                activeSession = nil
            }
        }
    }

    /// Whether any session is active (background tag reading is off while one is).
    var isBusy: Bool { lock.withLock { active != nil } }
}
