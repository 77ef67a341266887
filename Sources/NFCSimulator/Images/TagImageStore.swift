import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a command means to use a tag image.
package enum TagImageAccess: Sendable, Equatable {
    /// Only reads the tag: a shared lock, and the image is never written (a change the tag made
    /// by itself, such as an NFC counter, is reported as not kept).
    case read
    /// May change the tag: an exclusive lock from load to save, so concurrent commands serialize.
    case modify
}

/// What `TagImageStore/Handle/save(_:)` did.
package enum TagImageSaveOutcome: Sendable, Equatable {
    /// The tag is as it was loaded: the file was not touched.
    case unchanged
    /// The file now holds the tag.
    case saved
    /// The tag changed (a counter a read advanced) but the image was opened to read: not saved.
    case notKept(String)
}

/// Tag images as a small database: locked while in use, saved atomically, modes kept.
///
/// A command opens an image for `TagImageAccess/read` (a shared `flock`) or
/// `TagImageAccess/modify` (an exclusive `flock`) and keeps the lock until it has saved. The
/// lock is taken on the image file itself, so reading works in a folder the user cannot write.
/// A save replaces the file by rename: a waiter that then gets the lock holds it on the old,
/// replaced file, so after locking the store checks that the path still names the locked file
/// (same device and inode) and otherwise starts again on the new one. Locks are per open file
/// description (`flock(2)`), so they work between threads of one process as between processes.
package enum TagImageStore {
    /// How long a command waits for another to release an image before giving up.
    package static let defaultTimeout: Duration = .seconds(10)

    /// Opens and loads the image at `path`, locked for `access`. A symbolic link is followed once
    /// and the file it names is used throughout, so a save updates that file.
    /// - Throws: ``TagImageError`` — `notFound`, `permissionDenied` (for `TagImageAccess/modify`,
    ///   also when the file itself is read-only), `notARegularFile`, `busy` (another command held
    ///   the lock for `timeout`), or the image's own decoding errors.
    package static func open(_ path: String, for access: TagImageAccess, timeout: Duration = defaultTimeout) throws(TagImageError) -> Handle
    {
        let path = resolved(path)
        let (fd, status) = try lockCurrent(path, exclusive: access == .modify, deadline: .now + timeout)
        do {
            let bytes = try RegularFile.readAll(fd, path: path, limit: TagImageFile.maximumFileSize)
            let tag = try TagImageFile.decode(bytes)
            let baseline = try TagImageFile.encode(tag)
            return Handle(path: path, access: access, descriptor: fd, status: status, tag: tag, baseline: baseline)
        } catch {
            systemClose(fd)
            throw error
        }
    }

    /// Creates a new image at `path`, refusing to replace a file unless `replace` is set; images
    /// holding secrets (``TagImageFile/holdsSecrets(_:)``) are created `0600` whatever the umask.
    /// Replacing holds the old file's exclusive lock until the new file is in place, so no
    /// command is half-way through it and none can save over it; the old file's mode is kept
    /// (narrowed to its owner when the new tag holds secrets).
    package static func create(_ tag: any VirtualTag, at path: String, replace: Bool = false, timeout: Duration = defaultTimeout)
        throws(TagImageError)
    {
        let path = resolved(path)
        let bytes = try TagImageFile.encode(tag)
        let secret = TagImageFile.holdsSecrets(tag)
        let mode: AtomicFile.Mode = secret ? .exactly(0o600) : .umask
        var existing = stat()
        guard replace, lstat(path, &existing) == 0 else {
            try AtomicFile.write(bytes, to: path, mode: mode, replace: false)
            return
        }
        let (fd, status) = try lockCurrent(path, exclusive: true, deadline: .now + timeout)
        defer { systemClose(fd) }
        let kept = status.st_mode & (secret ? 0o700 : 0o7777)
        try AtomicFile.write(bytes, to: path, mode: .exactly(kept), owner: (status.st_uid, status.st_gid))
    }

    /// `path` with symbolic links resolved (`realpath`), or as given when it cannot be resolved.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Opens the file now at `path` and locks it; when a save replaced the file while this waited,
    /// starts again on the new one (checked by device and inode after locking).
    static func lockCurrent(_ path: String, exclusive: Bool, deadline: ContinuousClock.Instant) throws(TagImageError) -> (Int32, stat) {
        while true {
            let (fd, status) = try RegularFile.open(path, writable: exclusive)
            do {
                try lock(fd, exclusive: exclusive, path: path, deadline: deadline)
            } catch {
                systemClose(fd)
                throw error
            }
            var current = stat()
            if stat(path, &current) == 0, current.st_dev == status.st_dev, current.st_ino == status.st_ino {
                return (fd, status)
            }
            systemClose(fd)
        }
    }

    /// Takes `flock` on `fd`, retrying without blocking until `deadline` (so nothing waits for
    /// ever, and a signal still ends the wait).
    static func lock(_ fd: Int32, exclusive: Bool, path: String, deadline: ContinuousClock.Instant) throws(TagImageError) {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        var pause: Int = 1_000_000  // ns
        while flock(fd, operation) != 0 {
            let number = errno
            if number == EINTR { continue }
            guard number == EWOULDBLOCK else {
                throw TagImageError(.io, "cannot lock: \(String(cString: strerror(number)))")
            }
            guard ContinuousClock.now < deadline else {
                throw TagImageError(.busy, "in use by another command (nfc emulate, or a command still running); gave up waiting")
            }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            pause = min(pause * 2, 50_000_000)
        }
    }

    /// An open, locked image; ``close()`` (or the end of its life) releases the lock.
    package final class Handle: Sendable {
        /// The image file.
        package let path: String
        /// How the image was opened.
        package let access: TagImageAccess
        /// The tag as loaded.
        package let tag: any VirtualTag
        private let state: Guarded<State>

        struct State {
            var descriptor: Int32
            /// The encoding of the tag as last loaded or saved: a save of the same bytes is skipped.
            var baseline: [UInt8]
            /// The identity and permissions of the file as opened.
            var status: stat
        }

        init(path: String, access: TagImageAccess, descriptor: Int32, status: stat, tag: any VirtualTag, baseline: [UInt8]) {
            self.path = path
            self.access = access
            self.tag = tag
            self.state = Guarded(State(descriptor: descriptor, baseline: baseline, status: status))
        }

        deinit { close() }

        /// Saves `tag` if it differs from what was loaded, keeping the file's mode and owner.
        ///
        /// Opened for `TagImageAccess/modify`, the exclusive lock is held, so the save cannot
        /// undo anyone's change, and the lock moves to the new file with it. Opened for
        /// `TagImageAccess/read`, nothing is ever written: a change the tag made by itself (an
        /// NFC counter) is reported as `TagImageSaveOutcome/notKept(_:)`.
        @discardableResult
        package func save(_ tag: any VirtualTag) throws(TagImageError) -> TagImageSaveOutcome {
            let bytes = try TagImageFile.encode(tag)
            let path = self.path
            let access = self.access
            return try state.withLock { (state) throws(TagImageError) -> TagImageSaveOutcome in
                guard state.descriptor >= 0 else { throw TagImageError(.io, "\(path) was closed before saving") }
                guard bytes != state.baseline else { return .unchanged }
                guard access == .modify else { return .notKept("the command only reads \(path)") }
                let mode = AtomicFile.Mode.exactly(state.status.st_mode & 0o7777)
                let owner = (state.status.st_uid, state.status.st_gid)
                let fd = try AtomicFile.write(bytes, to: path, mode: mode, owner: owner, keepLocked: true)
                Handle.adopt(fd, into: &state)
                state.baseline = bytes
                return .saved
            }
        }

        /// Makes the freshly written file (locked exclusively by `AtomicFile/write`) the one this
        /// handle holds, and lets the replaced one go: waiters on the old file then find it
        /// replaced and queue on the new one, behind this handle.
        private static func adopt(_ fd: Int32?, into state: inout State) {
            guard let fd else { return }
            var status = stat()
            if fstat(fd, &status) == 0 { state.status = status }
            systemClose(state.descriptor)
            state.descriptor = fd
        }

        /// Releases the lock (closing the file); later saves fail.
        package func close() {
            state.withLock { state in
                guard state.descriptor >= 0 else { return }
                systemClose(state.descriptor)
                state.descriptor = -1
            }
        }
    }
}
