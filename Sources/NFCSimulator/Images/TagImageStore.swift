#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NFCBytes

/// How a command means to use a tag image.
public enum TagImageAccess: Sendable, Equatable {
    /// Only reads the tag: a shared lock, and the image is written only if the tag's state
    /// changed by itself (a counter) and nobody else changed the file meanwhile.
    case read
    /// May change the tag: an exclusive lock from load to save, so concurrent commands serialize.
    case modify
}

/// What ``TagImageStore/Handle/save(_:)`` did.
public enum TagImageSaveOutcome: Sendable, Equatable {
    /// The tag is as it was loaded: the file was not touched.
    case unchanged
    /// The file now holds the tag.
    case saved
    /// A read-only command's incidental change (a counter) was not kept; the reason says why.
    case notKept(String)
}

/// Tag images as a small database: locked while in use, saved atomically, modes kept.
///
/// A command opens an image for ``TagImageAccess/read`` (a shared `flock`) or
/// ``TagImageAccess/modify`` (an exclusive `flock`) and keeps the lock until it has saved. The
/// lock is taken on the image file itself, so reading works in a folder the user cannot write.
/// A save replaces the file by rename: a waiter that then gets the lock holds it on the old,
/// replaced file, so after locking the store checks that the path still names the locked file
/// (same device and inode) and otherwise starts again on the new one. Locks are per open file
/// description (`flock(2)`), so they work between threads of one process as between processes.
public enum TagImageStore {
    /// How long a command waits for another to release an image before giving up.
    public static let defaultTimeout: Duration = .seconds(10)

    /// Opens and loads the image at `path`, locked for `access`.
    /// - Throws: ``TagImageError`` — `notFound`, `permissionDenied`, `notARegularFile`, `busy`
    ///   (another command held the lock for `timeout`), or the image's own decoding errors.
    public static func open(_ path: String, for access: TagImageAccess, timeout: Duration = defaultTimeout) throws(TagImageError) -> Handle {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (fd, status) = try RegularFile.open(path)
            do {
                try lock(fd, exclusive: access == .modify, path: path, deadline: deadline)
                var current = stat()
                guard stat(path, &current) == 0, current.st_dev == status.st_dev, current.st_ino == status.st_ino else {
                    close(fd)  // replaced while we waited: lock the new file
                    continue
                }
                let bytes = try RegularFile.readAll(fd, path: path, limit: TagImageFile.maximumFileSize)
                let tag = try TagImageFile.decode(bytes)
                let baseline = try TagImageFile.encode(tag)
                return Handle(path: path, access: access, descriptor: fd, status: status, tag: tag, baseline: baseline)
            } catch {
                close(fd)
                throw error
            }
        }
    }

    /// Creates a new image at `path`, refusing to replace a file unless `replace` is set; images
    /// holding secrets (``TagImageFile/holdsSecrets(_:)``) are created `0600` whatever the umask.
    /// Replacing takes the old file's exclusive lock first, so no command is half-way through it.
    public static func create(_ tag: any VirtualTag, at path: String, replace: Bool = false, timeout: Duration = defaultTimeout) throws(TagImageError) {
        let bytes = try TagImageFile.encode(tag)
        let mode: AtomicFile.Mode = TagImageFile.holdsSecrets(tag) ? .exactly(0o600) : .umask
        guard replace else {
            try AtomicFile.write(bytes, to: path, mode: mode, replace: false)
            return
        }
        let fd = systemOpen(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var status = stat()
            if fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                try lock(fd, exclusive: true, path: path, deadline: .now + timeout)
            }
        }
        try AtomicFile.write(bytes, to: path, mode: mode)
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
    public final class Handle: Sendable {
        /// The image file.
        public let path: String
        /// How the image was opened.
        public let access: TagImageAccess
        /// The tag as loaded.
        public let tag: any VirtualTag
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
        /// Opened for ``TagImageAccess/modify``, the exclusive lock is held, so the save cannot
        /// undo anyone's change. Opened for ``TagImageAccess/read``, a change the tag made by
        /// itself (an NFC counter, a PIN retry counter) is kept only if the image can be locked
        /// exclusively at once and still holds what was loaded; otherwise it is dropped and
        /// the outcome says why — a reading command never undoes another command's write.
        @discardableResult
        public func save(_ tag: any VirtualTag) throws(TagImageError) -> TagImageSaveOutcome {
            let bytes = try TagImageFile.encode(tag)
            let path = self.path, access = self.access
            return try state.withLock { (state) throws(TagImageError) -> TagImageSaveOutcome in
                guard state.descriptor >= 0 else { throw TagImageError(.io, "\(path) was closed before saving") }
                guard bytes != state.baseline else { return .unchanged }
                let mode = AtomicFile.Mode.exactly(state.status.st_mode & 0o7777)
                let owner = (state.status.st_uid, state.status.st_gid)
                if access == .read {
                    guard flock(state.descriptor, LOCK_EX | LOCK_NB) == 0 else {
                        return .notKept("another command is using \(path)")
                    }
                    defer { _ = flock(state.descriptor, LOCK_SH | LOCK_NB) }
                    var current = stat()
                    guard stat(path, &current) == 0, current.st_ino == state.status.st_ino, current.st_dev == state.status.st_dev,
                        let onDisk = try? RegularFile.read(path, limit: TagImageFile.maximumFileSize),
                        let loaded = try? TagImageFile.decode(onDisk), (try? TagImageFile.encode(loaded)) == state.baseline
                    else {
                        return .notKept("\(path) changed since it was read")
                    }
                    do throws(TagImageError) {
                        let fd = try AtomicFile.write(bytes, to: path, mode: mode, owner: owner, keepLocked: true)
                        Handle.adopt(fd, into: &state, exclusive: false)
                    } catch {
                        return .notKept("\(path) cannot be written (\(error.reason))")
                    }
                } else {
                    let fd = try AtomicFile.write(bytes, to: path, mode: mode, owner: owner, keepLocked: true)
                    Handle.adopt(fd, into: &state, exclusive: true)
                }
                state.baseline = bytes
                return .saved
            }
        }

        /// Makes the freshly written file (locked exclusively by ``AtomicFile/write``) the one this
        /// handle holds, and lets the replaced one go: waiters on the old file then find it
        /// replaced and queue on the new one, behind this handle.
        private static func adopt(_ fd: Int32?, into state: inout State, exclusive: Bool) {
            guard let fd else { return }
            if !exclusive { _ = flock(fd, LOCK_SH | LOCK_NB) }
            var status = stat()
            if fstat(fd, &status) == 0 { state.status = status }
            systemClose(state.descriptor)
            state.descriptor = fd
        }

        /// Releases the lock (closing the file); later saves fail.
        public func close() {
            state.withLock { state in
                guard state.descriptor >= 0 else { return }
                systemClose(state.descriptor)
                state.descriptor = -1
            }
        }
    }
}
