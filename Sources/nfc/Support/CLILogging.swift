import Foundation
import Logging
import NFCBytes

/// swift-log for the `nfc` tool: the libraries' messages (driver, engines, sessions, emulation)
/// go to standard error, escaped like all output, at the level asked for.
///
/// The level is `notice` (nothing the libraries say, since they log at `debug` and `trace`
/// only) unless `OPENCORENFC_LOG` names another (`trace`, `debug`, `info`, …) or a command's
/// `-v` (debug) / `-vv` (trace) lowers it.
enum CLILogging {
    private static let current = Guarded<Logger.Level>(.notice)

    /// The level every handler reports (one for the whole tool).
    static var level: Logger.Level { current.withLock { $0 } }

    /// Installs the tool's handler; called once, first thing in `main`.
    static func bootstrap() {
        if let name = ProcessInfo.processInfo.environment["OPENCORENFC_LOG"],
            let level = Logger.Level(rawValue: name.lowercased())
        {
            current.withLock { $0 = level }
        }
        LoggingSystem.bootstrap { label in CLILogHandler(label: label) }
    }

    /// Lowers the level to `level` (more messages); a lower level already set stays.
    static func lower(to level: Logger.Level) {
        current.withLock { if level < $0 { $0 = level } }
    }

    /// The level for a count of `-v` flags: 1 is debug, 2 or more trace.
    static func level(verbosity: Int) -> Logger.Level? {
        switch verbosity {
        case ..<1: nil
        case 1: .debug
        default: .trace
        }
    }
}

/// Writes `nfc: LEVEL LABEL: message key=value…` lines to standard error through ``Output``,
/// which escapes control characters (a reader's name or an error reason never drives the
/// terminal).
struct CLILogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
    }

    /// The tool's one level (``CLILogging``); setting it on one logger changes nothing.
    var logLevel: Logger.Level {
        get { CLILogging.level }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let given = event.metadata { all.merge(given) { _, new in new } }
        let fields = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        Output.error("nfc: \(event.level) \(label): \(event.message)\(fields)")
    }
}
