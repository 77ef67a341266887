import Foundation
import NFCPCSC
import NFCSimulator
import NFCTransport

/// Where reader sessions find their reader, clock and app configuration.
///
/// Apps and tests inject a driver (`NFCSessionEnvironment.shared.driver = field`); otherwise
/// the `OPENCORENFC_READER` environment variable picks one: `sim` (the persistent virtual tag
/// `nfc` uses), `sim:FILE` (a tag image), `pcsc` (every PC/SC reader) or `pcsc:NAME` (PC/SC
/// readers whose name contains NAME). With neither there is no reader and
/// `NFCReaderSession.readingAvailable` is false: the simulator is never used silently.
public final class NFCSessionEnvironment: @unchecked Sendable {
    // All state is guarded by `lock`.
    private let lock = NSLock()
    private var injectedDriver: (any ReaderDriver)?
    private var resolvedDriver: (any ReaderDriver)??
    private var injectedClock: (any Clock<Duration>)?
    private var injectedConfiguration: NFCAppConfiguration?

    /// The environment every session uses.
    public static let shared = NFCSessionEnvironment()

    init() {}

    /// The reader sessions use; setting it overrides `OPENCORENFC_READER`.
    public var driver: (any ReaderDriver)? {
        get {
            lock.withLock {
                if let injectedDriver { return injectedDriver }
                if let resolvedDriver { return resolvedDriver }
                let resolved = Self.driverFromEnvironment()
                resolvedDriver = .some(resolved)
                return resolved
            }
        }
        set { lock.withLock { injectedDriver = newValue } }
    }

    /// The clock session timeouts run on (a `SimulatedClock` in tests); the continuous clock by default.
    public var clock: any Clock<Duration> {
        get { lock.withLock { injectedClock ?? ContinuousClock() } }
        set { lock.withLock { injectedClock = newValue } }
    }

    /// The app's NFC configuration (Info.plist and entitlements), which sessions enforce as
    /// Core NFC does. When none is set: the files named by `OPENCORENFC_INFO_PLIST` and
    /// `OPENCORENFC_ENTITLEMENTS`; with neither, sessions
    /// refuse to begin (`readerErrorSecurityViolation`), as iOS does for an app without
    /// `NFCReaderUsageDescription`.
    public var appConfiguration: NFCAppConfiguration? {
        get {
            lock.withLock {
                if let injectedConfiguration { return injectedConfiguration }
                return Self.configurationFromEnvironment()
            }
        }
        set { lock.withLock { injectedConfiguration = newValue } }
    }

    /// How long a session may live (Core NFC: 60 seconds).
    public var sessionLifetime: Duration {
        get { lock.withLock { lifetime } }
        set { lock.withLock { lifetime = newValue } }
    }
    private var lifetime: Duration = .seconds(60)

    /// Ends any active session and clears injected values (tests call this between cases).
    public func reset() {
        SessionCoordinator.shared.endActiveSession()
        lock.withLock {
            injectedDriver = nil
            resolvedDriver = nil
            injectedClock = nil
            injectedConfiguration = nil
        }
    }

    /// The configuration the files named in the environment give, if any.
    static func configurationFromEnvironment() -> NFCAppConfiguration? {
        let environment = ProcessInfo.processInfo.environment
        if let info = environment["OPENCORENFC_INFO_PLIST"], !info.isEmpty {
            let rights = environment["OPENCORENFC_ENTITLEMENTS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            return try? NFCAppConfiguration(infoPlistURL: URL(fileURLWithPath: info), entitlementsURL: rights)
        }
        return nil
    }

    /// The driver `OPENCORENFC_READER` names, if any.
    static func driverFromEnvironment() -> (any ReaderDriver)? {
        guard let value = ProcessInfo.processInfo.environment["OPENCORENFC_READER"], !value.isEmpty else { return nil }
        let path: String
        if value.hasPrefix("sim:") {
            path = String(value.dropFirst(4))
        } else if value == "sim" {
            path = ProcessInfo.processInfo.environment["OPENCORENFC_SIM_IMAGE"] ?? ""
            guard !path.isEmpty else { return nil }
        } else if value == "pcsc" || value.hasPrefix("pcsc:") {
            guard PCSCDriver.isLibraryAvailable else { return nil }
            return PCSCDriver(readerFilter: value == "pcsc" ? nil : String(value.dropFirst(5)))
        } else {
            return nil
        }
        guard let tag = try? TagImageFile.load(path) else { return nil }
        let field = SimulatedField()
        Task { await field.place(tag) }
        return field
    }
}
