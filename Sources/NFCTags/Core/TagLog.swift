import Logging

/// The tag engines' logger, `opencorenfc.tags`: each operation at debug, every frame at trace.
///
/// Libraries log below `info` only, so nothing shows unless the program bootstraps swift-log
/// at `debug` or `trace` (the `nfc` tool does with `-v` / `-vv` or `OPENCORENFC_LOG`).
enum TagLog {
    static let logger = Logger(label: "opencorenfc.tags")
}
