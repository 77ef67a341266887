import NFCBytes

/// The app's claim to the contactless interface (Core NFC, iOS 17.4:
/// `NFCPresentmentIntentAssertion`): while it is valid, the system's default contactless app does
/// not come up for a reader's field. Apple's reference: it expires after 15 seconds, when it is
/// released (deinitialized), or when the app goes to the background (there is no background
/// here). The 15 seconds run on ``NFCSessionEnvironment/clock``.
@available(iOS 17.4, *)
public final class NFCPresentmentIntentAssertion: Sendable {
    /// Why an assertion could not be acquired.
    public enum Error: Swift.Error, Hashable, Sendable {
        /// Not offered here (``NFCSessionEnvironment/isInEligibleRegion``).
        case systemEligibilityFailed
        /// No card emulation here, or the app lacks the `com.apple.developer.nfc.hce`
        /// entitlement (Apple ends the app with `fatalError` for both; a library throws).
        case systemNotAvailable
    }

    private let valid = Guarded(true)
    private let expiry: Guarded<Task<Void, Never>?> = Guarded(nil)

    private init() {}

    /// Acquires an assertion, valid for 15 seconds.
    /// - Throws: ``Error/systemNotAvailable`` or ``Error/systemEligibilityFailed``.
    public static func acquire() async throws -> NFCPresentmentIntentAssertion {
        let environment = NFCSessionEnvironment.shared
        guard environment.cardEmulationFront != nil, environment.appConfiguration?.cardEmulationEntitled == true else {
            throw Error.systemNotAvailable
        }
        guard environment.isInEligibleRegion else { throw Error.systemEligibilityFailed }
        let assertion = NFCPresentmentIntentAssertion()
        let clock = environment.clock
        let flag = assertion.valid
        let task = Task {
            guard (try? await clock.sleep(for: .seconds(15))) != nil else { return }
            flag.withLock { $0 = false }
        }
        assertion.expiry.withLock { $0 = task }
        return assertion
    }

    /// Whether the assertion still holds.
    public var isValid: Bool { valid.withLock { $0 } }

    deinit {
        expiry.withLock { $0?.cancel() }
    }
}
