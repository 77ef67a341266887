import Logging

/// The Core NFC layer's logger, `opencorenfc.session`: a session beginning, its reader, and how
/// it ended, at debug. Nothing at `info` or above (an app that does not ask sees nothing).
enum SessionLog {
    static let logger = Logger(label: "opencorenfc.session")
}
