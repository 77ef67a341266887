/// What the device is doing when a tag is tapped, as far as background tag reading cares.
///
/// Apple, "Adding support for background tag reading": the system does not read tags in the
/// background while a reader session is in progress, while Wallet or the camera is in use, in
/// airplane mode, or before the user first unlocks the device after a restart; on a locked
/// device it asks the user to unlock before delivering.
public struct NFCBackgroundDeviceState: OptionSet, Sendable, Hashable {
    /// The flags as bits (bit 0 ``readerSessionInProgress`` … bit 7 ``managedDevice``); the values are this library's own.
    public let rawValue: UInt32
    /// Makes a state from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// An app's NFC reader session is in progress (``current(_:)`` sets this from the process's own
    /// sessions).
    public static let readerSessionInProgress = NFCBackgroundDeviceState(rawValue: 1 << 0)
    /// Apple Pay / Wallet is in use.
    public static let walletInUse = NFCBackgroundDeviceState(rawValue: 1 << 1)
    /// The camera is in use.
    public static let cameraInUse = NFCBackgroundDeviceState(rawValue: 1 << 2)
    /// Airplane mode is on.
    public static let airplaneMode = NFCBackgroundDeviceState(rawValue: 1 << 3)
    /// The device restarted and has not been unlocked since.
    public static let beforeFirstUnlock = NFCBackgroundDeviceState(rawValue: 1 << 4)
    /// The device is locked (it has been unlocked since it started).
    public static let locked = NFCBackgroundDeviceState(rawValue: 1 << 5)
    /// Developer mode is on: `applinks:…?mode=developer` entries apply.
    public static let developerMode = NFCBackgroundDeviceState(rawValue: 1 << 6)
    /// The device is managed (MDM): `applinks:…?mode=managed` entries apply.
    public static let managedDevice = NFCBackgroundDeviceState(rawValue: 1 << 7)

    /// An unlocked device doing nothing in particular.
    public static let idle: NFCBackgroundDeviceState = []

    /// `state` plus ``readerSessionInProgress`` when a reader session of this process is active.
    public static func current(_ state: NFCBackgroundDeviceState = .idle) -> NFCBackgroundDeviceState {
        SessionCoordinator.shared.hasActiveSession ? state.union(.readerSessionInProgress) : state
    }

    /// The condition that keeps background reading off, in the order checked, if any.
    var unavailability: NFCBackgroundUnavailability? {
        for (flag, reason) in Self.blocking where contains(flag) { return reason }
        return nil
    }

    private static let blocking: [(NFCBackgroundDeviceState, NFCBackgroundUnavailability)] = [
        (.beforeFirstUnlock, .beforeFirstUnlock),
        (.airplaneMode, .airplaneMode),
        (.readerSessionInProgress, .readerSessionInProgress),
        (.walletInUse, .walletInUse),
        (.cameraInUse, .cameraInUse),
    ]
}

/// Why the device is not reading tags in the background.
public enum NFCBackgroundUnavailability: String, Sendable, Hashable, CaseIterable {
    /// The device restarted and has not been unlocked since.
    case beforeFirstUnlock = "before-first-unlock"
    /// Airplane mode is on.
    case airplaneMode = "airplane-mode"
    /// An app's NFC reader session is in progress.
    case readerSessionInProgress = "reader-session"
    /// Apple Pay / Wallet is in use.
    case walletInUse = "wallet"
    /// The camera is in use.
    case cameraInUse = "camera"
}
