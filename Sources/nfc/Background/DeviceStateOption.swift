import ArgumentParser
import OpenCoreNFC

/// `--device STATE`: the device conditions a tap is dispatched under.
enum DeviceStateOption: String, CaseIterable, ExpressibleByArgument {
    case locked
    case beforeFirstUnlock = "before-first-unlock"
    case airplaneMode = "airplane-mode"
    case readerSession = "reader-session"
    case wallet
    case camera
    case developerMode = "developer-mode"
    case managed

    var state: NFCBackgroundDeviceState {
        switch self {
        case .locked: .locked
        case .beforeFirstUnlock: .beforeFirstUnlock
        case .airplaneMode: .airplaneMode
        case .readerSession: .readerSessionInProgress
        case .wallet: .walletInUse
        case .camera: .cameraInUse
        case .developerMode: .developerMode
        case .managed: .managedDevice
        }
    }

    static func state(_ options: [DeviceStateOption]) -> NFCBackgroundDeviceState {
        options.reduce(into: NFCBackgroundDeviceState.idle) { $0.formUnion($1.state) }
    }
}
