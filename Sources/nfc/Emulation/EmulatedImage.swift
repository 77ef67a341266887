import NFCBytes
import NFCSimulator

/// A tag image an emulator serves from a simulated field (`nfc emulate --pn532`, `--nfcpy-udp`):
/// the field holding the image's tag, and saves of the tag back to the image.
///
/// Saves are queued after each answer that may follow a change, and run one after another, each
/// with the tag as it is when its turn comes, so an older state never overwrites a newer one. The
/// store writes only when the image changed. The first failure is kept for ``finish()``.
final class EmulatedImage: Sendable {
    /// The field the emulator's reader side reads.
    let field: SimulatedField
    private let image: TagImageStore.Handle
    private let id = VirtualTagID(rawValue: 1)
    private let saver = SaveQueue()
    /// The first save that failed.
    private let saveError = Guarded<String?>(nil)

    init(_ image: TagImageStore.Handle, fieldName: String) {
        self.image = image
        field = SimulatedField(name: fieldName, holding: [image.tag])
    }

    /// Queues a save after the ones before it; it reads the tag when its turn comes.
    func queueSave() async {
        await saver.queue { [self] in
            if let tag = await field.tag(id) { saveIfChanged(tag) }
        }
    }

    /// Waits for every queued save.
    func saved() async { await saver.finished() }

    /// Throws the first save's failure, if any.
    func finish() throws {
        if let failure = saveError.withLock({ $0 }) { throw CLIError("cannot save the tag image: \(failure)") }
    }

    private func saveIfChanged(_ tag: any VirtualTag) {
        guard saveError.withLock({ $0 == nil }) else { return }
        do {
            try image.save(tag)
        } catch {
            let reason = "\(image.path): \(error.reason)"
            saveError.withLock { $0 = $0 ?? reason }
        }
    }
}

/// Runs queued work one item at a time, in order.
private actor SaveQueue {
    private var last: Task<Void, Never>?

    func queue(_ work: @escaping @Sendable () async -> Void) {
        let previous = last
        last = Task {
            await previous?.value
            await work()
        }
    }

    func finished() async { await last?.value }
}
