import ArgumentParser
import Foundation
import NFCBackgroundConfiguration
import NFCBytes
import NFCPCSC
import NFCReaders
import NFCTransport
import OpenCoreNFC

/// `nfc watch [--reader R]... [--apps F] [--device STATE]... [--handler-timeout S] [--json]`
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Background tag reading: watch readers, dispatch every tap, run its handler.",
        discussion: """
            Each tap is read and dispatched with the rules of `nfc dispatch`; when it is delivered \
            and --apps names a handler for its app or system app, the handler runs with the URL as \
            an argument (never through a shell). Readers: pcsc (every PC/SC reader, as they come \
            and go; the default), pcsc:NAME or NAME (PC/SC readers whose name contains NAME), \
            sim:PATH (a tag image, or a directory of them: a file appearing is a tap, a file \
            removed is the tag taken away), pn532:PATH[:BAUD] (a PN532 board, polled every 250 ms). Every reader is watched on its own. One event per \
            tap; --json prints one JSON object per line. Ctrl-C stops. See docs/background.md.
            """
    )

    @Option(name: .long, help: "A reader to watch (repeatable): pcsc, pcsc:NAME, NAME, sim, sim:PATH, pn532:PATH[:BAUD].")
    var reader: [String] = []
    @Option(name: .long, help: "The apps, association files and handlers (docs/background.md).")
    var apps: String?
    @Option(name: .long, help: "A device condition: \(DeviceStateOption.allCases.map(\.rawValue).joined(separator: ", ")). Repeatable.")
    var device: [DeviceStateOption] = []
    @Option(name: .long, help: "Seconds a handler may run before it is killed.")
    var handlerTimeout: Double = 30
    @Flag(name: .long, help: "One JSON object per event, one per line.")
    var json = false

    func validate() throws {
        guard handlerTimeout > 0, handlerTimeout.isFinite else {
            throw ValidationError("--handler-timeout must be a positive number of seconds")
        }
    }

    func run() async throws {
        let configuration = try apps.map(BackgroundConfiguration.load) ?? .empty
        let output = WatchOutput(json: json)
        let runner = HandlerRunner(timeout: .milliseconds(Int64(handlerTimeout * 1000)))
        let state = DeviceStateOption.state(device)
        let specs: [ReaderName]
        do {
            specs = try (reader.isEmpty ? ["pcsc"] : reader).map { text throws(ReaderNameError) in try ReaderName(parsing: text) }
        } catch {
            throw CLIError(.usage, "--reader: \(error.reason)")
        }
        if specs.contains(where: { if case .pcsc = $0 { true } else { false } }), !PCSCDriver.isLibraryAvailable {
            throw CLIError("the PC/SC library (libpcsclite.so.1) is not installed; install pcscd, or watch a sim:PATH reader")
        }
        let watch = BackgroundWatch(configuration: configuration, output: output, runner: runner, state: state)
        let stopped = AsyncStream<Void>.makeStream()
        let signals = SignalStop {
            stopped.continuation.finish()
            // Whatever a reader is doing, the process ends soon after the signal.
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(2)) {
                runner.terminateAll()
                Output.error("stopped (a reader did not finish within 2 s)")
                Foundation.exit(130)
            }
        }
        defer { signals.cancel() }
        if !json { Output.error("watching \(specs.map(\.description).joined(separator: ", ")) (Ctrl-C to stop)") }
        await withTaskGroup(of: Void.self) { group in
            for spec in specs {
                group.addTask { await watch.watch(spec) }
            }
            for await _ in stopped.stream {}
            group.cancelAll()
        }
        runner.terminateAll()
    }
}
