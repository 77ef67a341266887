import ArgumentParser
import Foundation
import NFCBytes
import NFCPCSC
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
            removed is the tag taken away). Every reader is watched on its own. One event per \
            tap; --json prints one JSON object per line. Ctrl-C stops. See docs/background.md.
            """
    )

    @Option(name: .long, help: "A reader to watch (repeatable): pcsc, pcsc:NAME, NAME, sim, sim:PATH.")
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
        guard handlerTimeout > 0, handlerTimeout.isFinite else { throw ValidationError("--handler-timeout must be a positive number of seconds") }
    }

    func run() async throws {
        let configuration = try apps.map(BackgroundConfiguration.load) ?? .empty
        let output = WatchOutput(json: json)
        let runner = HandlerRunner(timeout: .milliseconds(Int64(handlerTimeout * 1000)))
        let state = DeviceStateOption.state(device)
        let specs = reader.isEmpty ? ["pcsc"] : reader
        if specs.contains(where: { !$0.hasPrefix("sim") }), !PCSCDriver.isLibraryAvailable {
            throw CLIError("the PC/SC library (libpcsclite.so.1) is not installed; install pcscd, or watch a sim:PATH reader")
        }
        let watch = BackgroundWatch(configuration: configuration, output: output, runner: runner, state: state)
        let stopped = AsyncStream<Void>.makeStream()
        let signals = SignalStop { stopped.continuation.finish() }
        defer { signals.cancel() }
        if !json { Output.error("watching \(specs.joined(separator: ", ")) (Ctrl-C to stop)") }
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

/// The readers of one `nfc watch` run and what happens at each tap.
struct BackgroundWatch: Sendable {
    let configuration: BackgroundConfiguration
    let output: WatchOutput
    let runner: HandlerRunner
    let state: NFCBackgroundDeviceState

    /// Watches the readers one `--reader` names until cancelled.
    func watch(_ spec: String) async {
        if spec == "sim" || spec.hasPrefix("sim:") {
            let path = spec == "sim" ? SimulatedReader.defaultImagePath : String(spec.dropFirst(4))
            let folder = ImageFolderField(path: path)
            let name = folder.field.name
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await folder.run { self.output.problem(reader: name, $0) } }
                group.addTask { await self.monitor(folder.field, name: name) }
                await group.next()
                group.cancelAll()
            }
            return
        }
        let filter: String? = spec == "pcsc" ? nil : spec.hasPrefix("pcsc:") ? String(spec.dropFirst(5)) : spec
        let readers = PCSCReaderWatch(filter: filter)
        let (newReaders, continuation) = AsyncStream<String>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await readers.run(
                    added: { name, first in
                        self.output.reader(name, added: true)
                        if first { continuation.yield(name) }
                    },
                    removed: { self.output.reader($0, added: false) },
                    problem: { self.output.problem(reader: spec, $0) }
                )
                continuation.finish()
            }
            for await name in newReaders {
                group.addTask { await self.monitor(PCSCDriver(reader: name), name: name) }
            }
            group.cancelAll()
        }
    }

    /// Dispatches every tap on one reader until cancelled.
    func monitor(_ driver: any ReaderDriver, name: String) async {
        let state = self.state
        let monitor = NFCBackgroundTagMonitor(driver: driver, readerName: name, reader: configuration.reader, state: { .current(state) })
        for await event in monitor.events() {
            switch event {
            case .tapped(let tap):
                let handler = tap.dispatch.target.flatMap(configuration.handler(for:))
                output.tap(tap, handler: handler)
                if case .delivered = tap.dispatch.outcome, let handler, let url = tap.dispatch.url {
                    start(handler, for: tap, url: url.absoluteString)
                }
            case .readFailed(let reader, let target, let reason):
                output.readFailed(reader: reader, target: target, reason: reason)
            case .left(let reader, let target):
                output.left(reader: reader, target: target)
            }
        }
    }

    private func start(_ handler: [String], for tap: NFCBackgroundTap, url: String) {
        let uid = WatchOutput.uid(tap.target)
        var environment = ["NFC_URL": url, "NFC_READER": tap.reader, "NFC_TAG_UID": uid]
        if let target = tap.dispatch.target { environment["NFC_TARGET"] = DispatchText.target(target) }
        if let bytes = try? tap.dispatch.message?.encoded() { environment["NFC_NDEF"] = Hex.encode(bytes) }
        let output = self.output
        runner.run(handler, url: url, environment: environment) { ending, elapsed in
            output.handler(reader: tap.reader, uid: uid, url: url, command: handler, ending: ending, elapsed: elapsed)
        }
    }
}
