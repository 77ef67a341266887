import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files an atomic save has open, removed again if the process is killed by a
/// signal between creating one and renaming it into place.
///
/// Paths live in a fixed table allocated once (a signal handler may not allocate or lock); a slot's
/// `state` is an atomic so that the handler only unlinks a path that is completely written.
/// ``removeOnSignals()`` installs the handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT: when the
/// disposition that was there before is the default action, it unlinks every registered path
/// (`unlink` is async-signal-safe, POSIX.1-2017 §2.4.3), then restores that disposition and
/// raises the signal again, so the process still dies of it. A handler installed earlier runs
/// instead and the files stay: the process lives on, and its saves finish.
package enum TemporaryFiles {
    static let slotCount = 16
    static let pathCapacity = Int(PATH_MAX) + 1
    /// Slot states: 0 free, 1 being filled or emptied, 2 holding a path the handler may unlink.
    nonisolated(unsafe) static let states: UnsafeMutablePointer<Atomic<Int>> = {
        let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: slotCount)
        for index in 0..<slotCount { (states + index).initialize(to: Atomic(0)) }
        return states
    }()
    nonisolated(unsafe) static let paths: UnsafeMutablePointer<CChar> = {
        let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * pathCapacity)
        paths.initialize(repeating: 0, count: slotCount * pathCapacity)
        return paths
    }()
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// The dispositions found when the handler was installed, restored before re-raising.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = .allocate(capacity: 4)
    static let installed = Atomic<Bool>(false)

    /// Records `path` as a temporary file to remove if a signal ends the process.
    /// - Returns: the slot to pass to ``unregister(_:)``, or `nil` when the table is full or the
    ///   path too long (the file is then only removed on ordinary exit paths).
    package static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity, !bytes.contains(0) else { return nil }
        for slot in 0..<slotCount {
            guard (states + slot).pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged else { continue }
            let base = paths + slot * pathCapacity
            for (offset, byte) in bytes.enumerated() { base[offset] = CChar(bitPattern: byte) }
            base[bytes.count] = 0
            (states + slot).pointee.store(2, ordering: .releasing)
            return slot
        }
        return nil
    }

    /// Forgets a slot once its file was renamed into place or removed.
    package static func unregister(_ slot: Int?) {
        guard let slot, slot >= 0, slot < slotCount else { return }
        (states + slot).pointee.store(0, ordering: .releasing)
    }

    /// Installs the signal handler (once per process). Command-line tools call this at start; a
    /// library never does, since signal dispositions belong to the application. A signal the
    /// process ignores (SIGHUP under `nohup`, SIGINT in a background job) stays ignored.
    package static func removeOnSignals() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        _ = states
        _ = paths
        var wanted = sigset_t()
        sigemptyset(&wanted)
        for (index, number) in signals.enumerated() {
            sigaction(number, nil, previous + index)
            if handlerBits(previous + index) == 1 { continue }  // SIG_IGN: keep ignoring it
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = temporaryFilesSignalHandler
            #elseif canImport(Musl)
            action.__sa_handler.sa_handler = temporaryFilesSignalHandler
            #else
            action.__sigaction_u.__sa_handler = temporaryFilesSignalHandler
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
            sigaddset(&wanted, number)
        }
        // A parent may have started the process with these signals blocked (Foundation's Process
        // does, from a dispatch thread): unblock them on this thread, or they would never arrive.
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
    }

    /// Blocks the cleanup signals on this thread (while a temporary file is created and
    /// registered); returns the mask to restore.
    static func blockSignals() -> sigset_t {
        var blocked = sigset_t()
        var old = sigset_t()
        sigemptyset(&blocked)
        for number in signals { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        return old
    }

    static func restoreSignals(_ mask: sigset_t) {
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// The handler of a saved disposition as a number: 0 `SIG_DFL`, 1 `SIG_IGN`, else a function.
    static func handlerBits(_ action: UnsafePointer<sigaction>) -> Int {
        #if canImport(Glibc)
        unsafeBitCast(action.pointee.__sigaction_handler.sa_handler, to: Int.self)
        #elseif canImport(Musl)
        unsafeBitCast(action.pointee.__sa_handler.sa_handler, to: Int.self)
        #else
        unsafeBitCast(action.pointee.__sigaction_u.__sa_handler, to: Int.self)
        #endif
    }

    /// Unlinks every registered path; called from the signal handler.
    static func unlinkAll() {
        for slot in 0..<slotCount { unlinkRegistered(slot: slot) }
    }

    /// Unlinks the path in `slot` if the slot holds a completely written one.
    static func unlinkRegistered(slot: Int) {
        if (states + slot).pointee.load(ordering: .acquiring) == 2 { unlink(paths + slot * pathCapacity) }
    }
}

/// The C signal handler: let the signal do what it did before, and remove the temporary files
/// only when that ends the process. With the default action, the files are removed and the
/// default restored and raised again, so the process dies of the signal. An ignored signal, or a
/// handler installed before ours (the application's, which may stop gracefully), leaves the
/// process running: its saves in progress keep their temporary files and finish (or fail) on
/// their own, instead of failing at the rename because a signal removed their file. (A handler
/// installed with SA_SIGINFO gets the signal raised again, with its disposition restored.)
private func temporaryFilesSignalHandler(_ number: Int32) {
    let index: Int
    switch number {
    case SIGINT: index = 0
    case SIGTERM: index = 1
    case SIGHUP: index = 2
    case SIGQUIT: index = 3
    default: return
    }
    let before = TemporaryFiles.previous + index
    let raw = TemporaryFiles.handlerBits(before)
    if raw == 1 { return }  // SIG_IGN
    if raw != 0, before.pointee.sa_flags & SA_SIGINFO == 0 {
        let handler = unsafeBitCast(raw, to: (@convention(c) (Int32) -> Void).self)
        handler(number)
        return
    }
    // The default action ends the process: its temporary files go first. An SA_SIGINFO
    // handler cannot be called from here (there is no siginfo to hand it): its disposition is
    // restored and the signal raised again for it, and the files stay, since it may keep the
    // process alive.
    if raw == 0 { TemporaryFiles.unlinkAll() }
    sigaction(number, before, nil)
    raise(number)
}
