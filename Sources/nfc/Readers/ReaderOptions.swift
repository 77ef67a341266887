import ArgumentParser
import NFCPCSC
import NFCReaders

/// The options every command that talks to a tag shares: which reader, fault injection, statistics.
struct ReaderOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The reader: sim (a persistent virtual tag), sim:FILE (a given tag image), pcsc (the first PC/SC reader with a tag), pcsc:NAME or NAME (a PC/SC reader whose name contains NAME; see nfc readers), pn532:PATH[:BAUD] (a PN532 board on a serial device; 115200 baud unless given), pn532-target:PATH (a virtual PN532 at PATH whose card is the program driving it as a target, e.g. libnfc's nfc-emulate-forum-tag4)."
    )
    var reader: String = "sim"

    @Option(name: .customLong("remove-after"), help: "Simulated readers: pull the tag out of the field after N commands.")
    var removeAfter: Int?

    @Option(
        name: .customLong("reader-profile"),
        help: ArgumentHelp(
            "PC/SC readers: take the reader for this model instead of recognising it (generic, acr122u, acr1252u, acr1552u, omnikey5022, omnikey5427, utrust3700f; or set OPENCORENFC_READER_PROFILE). docs/readers.md.",
            valueName: "PROFILE"))
    var readerProfile: String?

    @Flag(name: .long, help: "Print commands sent, bytes each way and air time.")
    var stats = false

    @Flag(name: .long, help: "Print every frame or APDU exchanged, with its air time (simulator) or wall time, on standard error.")
    var trace = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Log to standard error: -v what the engines and the driver do, -vv every frame (or set OPENCORENFC_LOG=debug|trace).")
    var verbosity: Int

    func validate() throws {
        // The one hook ArgumentParser runs before any command body: the log level must be set
        // before the first library logger logs (the handler reads it on every message).
        if let level = CLILogging.level(verbosity: verbosity) { CLILogging.lower(to: level) }
        if let removeAfter, removeAfter < 0 { throw ValidationError("--remove-after must be 0 or more") }
        do {
            _ = try ReaderName(parsing: reader)
        } catch {
            throw ValidationError("--reader: \(error.reason)")
        }
        if let readerProfile {
            do { _ = try ReaderProfile.named(readerProfile) } catch { throw ValidationError("--reader-profile: \(error.reason)") }
        }
    }

    /// `--reader-profile`, parsed (``validate()`` has checked it), for the reader `name`: a usage
    /// error unless that is a PC/SC reader.
    func profile(for name: ReaderName) throws -> ReaderProfile? {
        guard let readerProfile else { return nil }
        guard case .pcsc = name else { throw CLIError(.usage, "--reader-profile is for PC/SC readers, not \(name)") }
        do { return try ReaderProfile.named(readerProfile) } catch { throw CLIError(.usage, "--reader-profile: \(error.reason)") }
    }

    /// `--reader`, parsed (``validate()`` has checked it).
    func readerName() throws -> ReaderName {
        do {
            return try ReaderName(parsing: reader)
        } catch {
            throw CLIError(.usage, "--reader: \(error.reason)")
        }
    }
}
