import Foundation
import NFCReaders
import NFCTransport

/// Where reader sessions find their reader, clock and app configuration.
///
/// Apps and tests inject a driver (`NFCSessionEnvironment.shared.driver = field`); otherwise
/// the `OPENCORENFC_READER` environment variable names one in the grammar the `nfc` tool uses
/// (`ReaderName`): `sim` (the persistent virtual tag `nfc` uses, created on first use),
/// `sim:FILE` (a tag image), `pcsc` (every PC/SC reader), `pcsc:NAME` or `NAME` (PC/SC readers
/// whose name contains NAME). With neither there is no reader and
/// `NFCReaderSession.readingAvailable` is false: the simulator is never used silently. A name
/// that cannot be used (malformed, or a backend this build leaves out) leaves no reader too, and
/// ``readerProblem`` says why; sessions put that reason in their invalidation error.
public final class NFCSessionEnvironment: @unchecked Sendable {
    // All state is guarded by `lock`.
    private let lock = NSLock()
    private var injectedDriver: (any ReaderDriver)?
    private var resolvedDriver: (any ReaderDriver)??
    private var resolutionProblem: String?
    private var injectedClock: (any Clock<Duration>)?
    private var injectedConfiguration: NFCAppConfiguration?

    /// The environment every session uses.
    public static let shared = NFCSessionEnvironment()

    init() {}

    /// The reader sessions use; setting it overrides `OPENCORENFC_READER`.
    public var driver: (any ReaderDriver)? {
        get {
            lock.withLock { () -> (any ReaderDriver)? in
                if let injectedDriver { return injectedDriver }
                if let resolvedDriver { return resolvedDriver }
                let resolved: (any ReaderDriver)?
                do throws(ReaderNameError) {
                    resolved = try Self.driverFromEnvironment()
                } catch {
                    resolved = nil
                    resolutionProblem = "OPENCORENFC_READER: \(error.reason)"
                }
                resolvedDriver = .some(resolved)
                return resolved
            }
        }
        set { lock.withLock { injectedDriver = newValue } }
    }

    /// Why `OPENCORENFC_READER` gave no reader, when it names one that cannot be used.
    public var readerProblem: String? {
        lock.withLock { injectedDriver == nil ? resolutionProblem : nil }
    }

    /// The clock session timeouts run on (a `SimulatedClock` in tests); the continuous clock by default.
    public var clock: any Clock<Duration> {
        get { lock.withLock { injectedClock ?? ContinuousClock() } }
        set { lock.withLock { injectedClock = newValue } }
    }

    /// The app's NFC configuration (Info.plist and entitlements), which sessions enforce as
    /// Core NFC does. When none is set: the files named by `OPENCORENFC_INFO_PLIST` and
    /// `OPENCORENFC_ENTITLEMENTS`; with neither, or with files that cannot be read
    /// (``configurationProblem`` says which and where), sessions refuse to begin with
    /// `readerErrorSecurityViolation` and that reason. (iOS ends an app without
    /// `NFCReaderUsageDescription` instead; a library cannot.)
    public var appConfiguration: NFCAppConfiguration? {
        get {
            lock.withLock {
                if let injectedConfiguration { return injectedConfiguration }
                return Self.configurationFromEnvironment().configuration
            }
        }
        set { lock.withLock { injectedConfiguration = newValue } }
    }

    /// Why the files `OPENCORENFC_INFO_PLIST` and `OPENCORENFC_ENTITLEMENTS` name gave no
    /// configuration — the file, the key path, the line, as ``NFCConfigurationError`` says — or
    /// nil when they gave one, name none, or a configuration is injected.
    public var configurationProblem: String? {
        lock.withLock { injectedConfiguration == nil ? Self.configurationFromEnvironment().problem : nil }
    }

    /// How long a session may live (Core NFC: 60 seconds).
    public var sessionLifetime: Duration {
        get { lock.withLock { lifetime } }
        set { lock.withLock { lifetime = newValue } }
    }
    private var lifetime: Duration = .seconds(60)

    /// Whether the device and the user's account are where Apple offers the region-limited
    /// features: `NFCPaymentTagReaderSession` (Apple: an account registered in, and a device
    /// located in, the European Union) and card emulation (`CardSession`, the European Economic
    /// Area). A computer has no such region, so this is true unless set to false, which is how
    /// a test checks what an app does on an ineligible phone (`readingAvailable` false,
    /// `readerErrorIneligible` at `begin()`, `CardSession.isEligible` false).
    public var isInEligibleRegion: Bool {
        get { lock.withLock { eligibleRegion } }
        set { lock.withLock { eligibleRegion = newValue } }
    }
    private var eligibleRegion = true

    /// Where card emulation (`CardSession`) meets outside readers: a `SimulatedCardTerminal` in
    /// tests. Nil (the default): `CardSession.isSupported` is false.
    public var cardEmulationFront: (any CardEmulationFront)? {
        get { lock.withLock { front } }
        set { lock.withLock { front = newValue } }
    }
    private var front: (any CardEmulationFront)?

    /// Ends any active session and clears injected values (tests call this between cases).
    public func reset() {
        SessionCoordinator.shared.endActiveSession()
        lock.withLock {
            injectedDriver = nil
            resolvedDriver = nil
            resolutionProblem = nil
            injectedClock = nil
            injectedConfiguration = nil
            eligibleRegion = true
            front = nil
        }
    }

    /// The configuration the files named in the environment give, or why they give none.
    static func configurationFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (configuration: NFCAppConfiguration?, problem: String?) {
        guard let info = environment["OPENCORENFC_INFO_PLIST"], !info.isEmpty else { return (nil, nil) }
        let rights = environment["OPENCORENFC_ENTITLEMENTS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        do {
            return (try NFCAppConfiguration(infoPlistURL: URL(fileURLWithPath: info), entitlementsURL: rights), nil)
        } catch {
            return (nil, "OPENCORENFC_INFO_PLIST / OPENCORENFC_ENTITLEMENTS: \(error)")
        }
    }

    /// The driver `OPENCORENFC_READER` names, if any (``ReaderName``'s grammar).
    static func driverFromEnvironment() throws(ReaderNameError) -> (any ReaderDriver)? {
        guard let value = ProcessInfo.processInfo.environment["OPENCORENFC_READER"], !value.isEmpty else { return nil }
        return try ReaderBackends.sessionDriver(for: try ReaderName(parsing: value))
    }
}
