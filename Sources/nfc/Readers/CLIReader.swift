import NFCPCSC
import NFCReaders
import NFCSimulator
import NFCTransport

/// A reader a CLI command runs on: the simulator (`sim`, `sim:FILE`), a PC/SC reader
/// (`pcsc`, `pcsc:NAME`, or a reader's name as `nfc readers` prints it), a PN532 board
/// (`pn532:PATH[:BAUD]`) or a program playing the card of a virtual PN532 (`pn532-target:PATH`).
protocol CLIReader: Sendable {
    /// Counts what the command sends and receives.
    var meter: AirTimeMeter { get }
    /// Connects to the tag on the reader.
    func connect() async throws -> any TagConnection
    /// Keeps what the command changed (saves a simulated tag's image if it changed) and lets the
    /// reader go (a simulated tag's image lock); nothing for hardware.
    func finish() async throws -> TagImageSaveOutcome
    /// Why the tag cannot be reset (connected again after a disconnect), or nil when it can.
    var resetRefusal: String? { get }
    /// Every tag the reader sees now (`nfc scan --all`); `nil` for a reader that holds one tag at a
    /// time, which ``connect()`` reaches.
    func allTargets() async throws -> [TargetInfo]?
    /// Connects to one of ``allTargets()``.
    func connect(to target: TargetInfo) async throws -> any TagConnection
}

extension CLIReader {
    /// Most readers connect again after a disconnect.
    var resetRefusal: String? { nil }

    /// A reader that holds one tag at a time (a program playing the card, which may end when
    /// released): no list; `nfc scan --all` connects once.
    func allTargets() async throws -> [TargetInfo]? { nil }

    /// A reader that holds one tag at a time: its tag.
    func connect(to target: TargetInfo) async throws -> any TagConnection { try await connect() }
}

enum CLIReaders {
    /// Opens the reader `--reader` names, for a command that reads or modifies the tag; with
    /// `--trace`, every exchange is printed (``TracingReader``).
    static func open(_ options: ReaderOptions, access: TagImageAccess) async throws -> any CLIReader {
        let reader = try await openUntraced(options, access: access)
        return options.trace ? TracingReader(reader) : reader
    }

    private static func openUntraced(_ options: ReaderOptions, access: TagImageAccess) async throws -> any CLIReader {
        let name = try options.readerName()
        let profile = try options.profile(for: name)
        if let simulated = try await SimulatedReader.open(name, access: access, removeAfter: options.removeAfter) {
            return simulated
        }
        if options.removeAfter != nil {
            throw CLIError("--remove-after works on simulated readers only (use nfc emulate --remove-after for a PC/SC card)")
        }
        switch name {
        case .pcsc(let filter): return PCSCReader(filter: filter, profile: profile)
        case .pn532(let path, let baudRate): return PN532Reader(path: path, baudRate: baudRate)
        case .pn532Target(let path): return PN532TargetCLIReader(path: path)
        case .nfcpyUDP(let host, let port): return NfcpyUDPCLIReader(host: host, port: port)
        case .simulator: throw CLIError(.usage, "\(name): not a reader this command can use")
        }
    }
}
