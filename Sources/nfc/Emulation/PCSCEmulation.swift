import Dispatch
import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `nfc emulate --pcsc` loop: connects to vpcd (waiting while pcscd is not there), serves
/// the card, saves the image after each command that changed the tag, reconnects when vpcd goes
/// away, and ends on SIGINT/SIGTERM or when `--remove-after` pulls the card out.
///
/// The loop blocks the calling thread; the signal handlers run on a dispatch queue and only
/// stop the link, which makes the blocked call return.
final class PCSCEmulation {
    private var front: EmulatedReaderFront
    private let image: TagImageStore.Handle
    private let link: VPCDLink
    private let removeAfter: Int?
    /// Whether the tag changed since it was last saved (a save failed).
    private var unsaved = false
    private var saveError: String?

    /// How long to wait before connecting again.
    static let retryMicroseconds: UInt32 = 100_000

    init(front: EmulatedReaderFront, image: TagImageStore.Handle, link: VPCDLink, removeAfter: Int?) {
        self.front = front
        self.image = image
        self.link = link
        self.removeAfter = removeAfter
    }

    /// Runs until stopped or the card is removed; the image is up to date when it returns.
    /// - Throws: ``CLIError`` when vpcd's host does not resolve or the image cannot be saved.
    func run() throws {
        let signals = SignalStop { [link] in link.stop() }
        defer { signals.cancel() }
        var waiting = false
        var reconnecting = false
        loop: while !link.isStopRequested {
            do {
                try link.connect()
            } catch  where error.code == .stopped {
                break
            } catch  where error.code == .unresolvableHost {
                throw CLIError(error.description)
            } catch {
                if !waiting && !reconnecting { Output.error("waiting for vpcd: \(error)") }
                waiting = true
                usleep(Self.retryMicroseconds)
                continue
            }
            if waiting || reconnecting { Output.error("connected to vpcd at \(link.endpoint)") }
            waiting = false
            reconnecting = false
            let ending = link.serve(&front, removeAfter: removeAfter) { front in
                if front.lastCommandWroteMemory { save(front.tag) }
            }
            switch ending {
            case .stopped:
                break loop
            case .cardRemoved(let count):
                try finish()
                Output.error("card removed after \(count) commands")
                return
            case .peerClosed, .failed:
                Output.error("\(ending); reconnecting")
                reconnecting = true
                usleep(Self.retryMicroseconds)
            }
        }
        try finish()
        Output.error("stopped after \(front.commandCount) commands")
    }

    /// Saves the tag; a failure stops the emulation (reported when it ends).
    private func save(_ tag: any VirtualTag) {
        do {
            try image.save(tag)
            unsaved = false
        } catch {
            unsaved = true
            saveError = "\(image.path): \(error.reason)"
            link.stop()
        }
    }

    /// Saves what is not saved yet, and reports a save that failed.
    private func finish() throws {
        if unsaved { save(front.tag) }
        if unsaved, let saveError { throw CLIError("cannot save the tag image: \(saveError)") }
    }
}
