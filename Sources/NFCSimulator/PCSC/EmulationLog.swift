import Logging

/// Card emulation's logger, `opencorenfc.emulation`: the vpcd link connecting and ending at
/// debug, every APDU the emulated card answers at trace. Nothing at `info` or above.
enum EmulationLog {
    static let logger = Logger(label: "opencorenfc.emulation")
}
