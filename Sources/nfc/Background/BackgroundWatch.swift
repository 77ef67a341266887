import Foundation
import NFCBackgroundConfiguration
import NFCBytes
import NFCPCSC
import NFCPN532
import NFCReaders
import NFCSimulator
import NFCTransport
import OpenCoreNFC

/// The readers of one `nfc watch` run and what happens at each tap.
struct BackgroundWatch: Sendable {
    let configuration: BackgroundConfiguration
    let output: WatchOutput
    let runner: HandlerRunner
    let state: NFCBackgroundDeviceState

    /// Watches the readers one `--reader` names until cancelled.
    func watch(_ spec: ReaderName) async {
        if case .simulator(let given) = spec {
            let path = given ?? SimulatorHome.defaultImagePath
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
        if case .pn532(let path, let baudRate) = spec {
            await monitor(PN532Driver(path: path, baudRate: baudRate ?? 115_200), name: spec.description)
            return
        }
        if case .pn532Target(let path) = spec {
            do {
                let reader = try PN532TargetReader(linkPath: path)
                await monitor(reader, name: spec.description)
                await reader.stop()
            } catch {
                output.problem(reader: spec.description, error.reason)
            }
            return
        }
        if case .nfcpyUDP(let host, let port) = spec {
            await monitor(NfcpyUDPReader(host: host, port: port), name: spec.description)
            return
        }
        guard case .pcsc(let filter) = spec else { return }
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
                    problem: { self.output.problem(reader: spec.description, $0) }
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
