import NFCPCSC
import NFCTransport

/// `nfc watch --reader pcsc[:NAME]`: finds PC/SC readers as they come and go, and starts a
/// monitor of its own for each new one (one `PCSCDriver(reader:)` per reader, so each reader's
/// taps are handled on their own). A reader unplugged and plugged back keeps its monitor, which
/// reports its tags again; pcscd restarting is survived by every monitor re-establishing its
/// context.
struct PCSCReaderWatch: Sendable {
    /// Readers whose name contains this; `nil` for every reader.
    let filter: String?

    /// Polls the reader list until cancelled (PC/SC's own notifications drive the taps; the list
    /// only decides which readers have a monitor). `added`/`removed` hear of list changes,
    /// `problem` of pcscd being unreachable (once per distinct reason).
    func run(
        every interval: Duration = .milliseconds(500),
        added: @escaping @Sendable (String, _ first: Bool) -> Void,
        removed: @escaping @Sendable (String) -> Void,
        problem: @escaping @Sendable (String) -> Void
    ) async {
        var monitored: Set<String> = []
        var present: Set<String> = []
        var lastProblem: String?
        let lister = PCSCDriver(readerFilter: filter)
        while !Task.isCancelled {
            do {
                let readers = Set(try lister.readers())
                lastProblem = nil
                for reader in readers.subtracting(present).sorted() {
                    added(reader, !monitored.contains(reader))
                    monitored.insert(reader)
                }
                for reader in present.subtracting(readers).sorted() { removed(reader) }
                present = readers
            } catch {
                let reason = "\(error)"
                if reason != lastProblem { problem(reason) }
                lastProblem = reason
                for reader in present.sorted() { removed(reader) }
                present = []
            }
            try? await Task.sleep(for: interval)
        }
    }
}
