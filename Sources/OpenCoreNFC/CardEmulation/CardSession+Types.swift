@available(iOS 17.4, *)
extension CardSession {
    /// Why a card session failed or ended (Apple's `CardSession.Error`).
    public enum Error: Swift.Error, Sendable, Hashable {
        /// The session is no longer valid (it was invalidated, or it ended).
        case invalidated
        /// The session was ended by a call to ``CardSession/invalidate()`` (decision: Core NFC
        /// reports an app's own `invalidate()` of a reader session as the user's cancel, error
        /// 200; this is the card session's counterpart).
        case userInvalidated
        /// Emulation ran for its maximum duration (``NFCSessionEnvironment/sessionLifetime``).
        case maxSessionDurationReached
        /// A response could not be sent: the reader left, or the APDU was already answered.
        case transmissionError
        /// No card emulation here: no ``NFCSessionEnvironment/cardEmulationFront``, another card
        /// session is active, or the front could not start.
        case systemNotAvailable
        /// The app is not allowed to emulate: the `com.apple.developer.nfc.hce` entitlement is
        /// missing (Apple ends the app with `fatalError` there; a library throws instead).
        case accessNotAccepted
        /// Not offered here (Apple: the European Economic Area); see
        /// ``NFCSessionEnvironment/isInEligibleRegion``.
        case systemEligibilityFailed
        /// Emulation is not running: ``CardSession/startEmulation()`` was not called, or
        /// ``CardSession/stopEmulation(status:)`` was.
        case emulationStopped
        /// The NFC radio is off (never raised here, where there is no radio switch).
        case radioDisabled
    }

    /// What a card session reports on its ``CardSession/eventStream`` (Apple's `CardSession.Event`).
    public enum Event: Sendable {
        /// The session started; it is the stream's first event.
        case sessionStarted
        /// A reader's field was detected.
        case readerDetected
        /// The reader sent an APDU for the app: answer it with ``CardSession/APDU/respond(response:)``.
        case received(CardSession.APDU)
        /// The reader went away, or the app's AID is no longer the selected one.
        case readerDeselected
        /// The session ended, for this reason; the stream's last event.
        case sessionInvalidated(reason: CardSession.Error)
    }

    /// What the system's emulation sheet shows when emulation stops (there is no sheet here).
    public enum EmulationUIStatus: Hashable, Sendable {
        /// The transaction succeeded.
        case success
        /// The transaction failed.
        case failure
    }
}
