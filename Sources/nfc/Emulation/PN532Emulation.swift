import Dispatch
import NFCBytes
import NFCPN532
import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `nfc emulate --pn532 PATH` loop: a pseudo-terminal whose other end is a PN532 on HSU
/// (UM0701-02 §6.2) with the image's tag in its field, `PATH` a symbolic link to the terminal's
/// device. libnfc opens it as `pn532_uart:PATH`.
///
/// The terminal is `NFCPN532`'s `PseudoTerminal`. The image
/// is saved after each command that changed the tag, and once more at the end; the link is
/// removed when the loop ends (SIGINT, SIGTERM).
final class PN532Emulation {
    private let image: TagImageStore.Handle
    private let linkPath: String
    private let field: SimulatedField
    private let id: VirtualTagID
    /// The first save that failed; saves come from the chip's writes and from the end of the run.
    private let saveError = Guarded<String?>(nil)

    init(image: TagImageStore.Handle, linkPath: String) {
        self.image = image
        self.linkPath = linkPath
        self.field = SimulatedField(name: "pn532", holding: [image.tag])
        self.id = VirtualTagID(rawValue: 1)
    }

    /// Runs until SIGINT or SIGTERM.
    /// - Throws: ``CLIError`` when the terminal or the link cannot be made, or the image cannot be saved.
    func run() throws {
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal(linkingAt: linkPath)
        } catch {
            throw CLIError(error.reason)
        }
        defer { terminal.close() }
        let (master, device) = (terminal.master, terminal.device)

        let stopped = Guarded(false)
        let signals = SignalStop { stopped.withLock { $0 = true } }
        defer { signals.cancel() }
        // What the chip writes goes to the terminal; after each write a save is queued (a
        // response follows the command that changed the tag). Saves run one after another, each
        // with the tag as it is when its turn comes, so an older state never overwrites a newer one.
        let saver = ImageSaver(field: field, id: id, emulation: UncheckedBox(self))
        Output.error("PN532 on \(linkPath) -> \(device) (LIBNFC_DEVICE=pn532_uart:\(linkPath)); Ctrl-C to stop")
        let done = DispatchSemaphore(value: 0)
        let field = self.field
        let served = Guarded(VirtualPN532.Statistics())
        Task.detached {
            let statistics = await VirtualPN532.serve(fileDescriptor: master, driver: field, stopped: stopped) { await saver.queueSave() }
            served.withLock { $0 = statistics }
            // A command still running when the line stopped may have changed the tag.
            await saver.queueSave()
            await saver.finished()
            done.signal()
        }
        done.wait()
        Output.error(Self.summary(served.withLock { $0 }))
        try finish()
    }

    /// `stopped after N commands (…)`: the commands by name, most frequent first, and what the
    /// line carried with its time at the PN532's default 115,200 baud.
    static func summary(_ statistics: VirtualPN532.Statistics) -> String {
        let counts = statistics.commands.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { code, count in
            let name = PN532Command(rawValue: code)?.manualName ?? "command \(Hex.encode([code]))"
            return "\(name) \(count)"
        }
        let bytes = statistics.bytesFromHost + statistics.bytesToHost
        // Tenths of a millisecond: 10 bits a byte.
        let tenths = bytes * 10 * 10_000 / 115_200
        let detail = counts.isEmpty ? "" : ": " + counts.joined(separator: ", ")
        return "stopped after \(statistics.commandCount) commands\(detail); \(bytes) bytes on the line, "
            + "\(tenths / 10).\(tenths % 10) ms at 115200 baud"
    }

    /// Saves the tag (the store writes only when its image changed).
    fileprivate func saveIfChanged(_ tag: any VirtualTag) {
        guard saveError.withLock({ $0 == nil }) else { return }
        do {
            try image.save(tag)
        } catch {
            let reason = "\(image.path): \(error.reason)"
            saveError.withLock { $0 = $0 ?? reason }
        }
    }

    private func finish() throws {
        if let failure = saveError.withLock({ $0 }) { throw CLIError("cannot save the tag image: \(failure)") }
    }
}

/// Carries the emulation into the reading task; only that task uses it while `run` waits.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Saves the emulated tag's image one save at a time, in the order they were asked for.
private actor ImageSaver {
    let field: SimulatedField
    let id: VirtualTagID
    let emulation: UncheckedBox<PN532Emulation>
    private var last: Task<Void, Never>?

    init(field: SimulatedField, id: VirtualTagID, emulation: UncheckedBox<PN532Emulation>) {
        self.field = field
        self.id = id
        self.emulation = emulation
    }

    /// Queues a save after the ones before it; it reads the tag when its turn comes.
    func queueSave() {
        let previous = last
        let (field, id, emulation) = (self.field, self.id, self.emulation)
        last = Task {
            await previous?.value
            if let tag = await field.tag(id) { emulation.value.saveIfChanged(tag) }
        }
    }

    /// Waits for every queued save.
    func finished() async { await last?.value }
}
