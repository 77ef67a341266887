import Dispatch
import NFCBytes
import NFCSimulator

/// The tag images an emulator serves from a simulated field (`nfc emulate --pn532`,
/// `--nfcpy-udp`): the field holding the images' tags, in the order given, and saves of each tag
/// back to its image.
///
/// Saves are queued after each answer that may follow a change, and run one after another, each
/// with the tag as it is when its turn comes, so an older state never overwrites a newer one. The
/// store writes only when the image changed. The first failure is kept for ``finish()``.
final class EmulatedImage: Sendable {
    /// The field the emulator's reader side reads.
    let field: SimulatedField
    private let images: [TagImageStore.Handle]
    private let saver = SaveQueue()
    /// The first save that failed.
    private let saveError = Guarded<String?>(nil)

    init(_ images: [TagImageStore.Handle], fieldName: String) {
        self.images = images
        field = SimulatedField(name: fieldName, holding: images.map(\.tag))
    }

    /// Runs an emulator's serving loop until SIGINT or SIGTERM sets its `stopped` flag, then
    /// saves once more (a command still running when the loop stopped may have changed a tag)
    /// and returns what the loop returned. The loop gets the flag and the closure to call after
    /// each answer, which queues a save.
    func serve<Statistics: Sendable>(
        _ loop: @escaping @Sendable (_ stopped: Guarded<Bool>, _ answered: @escaping @Sendable () async -> Void) async -> Statistics
    ) -> Statistics {
        let stopped = Guarded(false)
        let signals = SignalStop { stopped.withLock { $0 = true } }
        defer { signals.cancel() }
        let done = DispatchSemaphore(value: 0)
        let served = Guarded<Statistics?>(nil)
        Task.detached { [self] in
            let statistics = await loop(stopped) { await self.queueSave() }
            served.withLock { $0 = statistics }
            await queueSave()
            await saved()
            done.signal()
        }
        done.wait()
        return served.withLock { $0 }!
    }

    /// Queues a save after the ones before it; it reads the tags when its turn comes (the field
    /// numbers its tags from 1 in the order it was given them).
    func queueSave() async {
        await saver.queue { [self] in
            for (index, image) in images.enumerated() {
                if let tag = await field.tag(VirtualTagID(rawValue: UInt64(index + 1))) { saveIfChanged(tag, to: image) }
            }
        }
    }

    /// Waits for every queued save.
    func saved() async { await saver.finished() }

    /// Throws the first save's failure, if any.
    func finish() throws {
        if let failure = saveError.withLock({ $0 }) { throw CLIError("cannot save the tag image: \(failure)") }
    }

    private func saveIfChanged(_ tag: any VirtualTag, to image: TagImageStore.Handle) {
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
