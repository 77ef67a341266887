#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files so that a crash, a full disk or a signal at any moment leaves either the
/// old file or the new one, and never a stray temporary file.
package enum AtomicFile {
    /// The permissions of a file being written.
    package enum Mode: Sendable, Equatable {
        /// A new file: `0666` less the process's umask, as `open(2)` creates files.
        case umask
        /// Exactly these permission bits, whatever the umask (`0o600` for files holding secrets).
        case exactly(mode_t)
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same folder is written,
    /// flushed with `fsync`, given its mode, renamed over the target (atomic within a file system,
    /// POSIX.1-2017 rename()), and the folder is flushed so the rename itself is durable.
    ///
    /// The temporary file is removed on every failure, and (once `TemporaryFiles/removeOnSignals()`
    /// was called) when a signal ends the process mid-write.
    /// - Parameters:
    ///   - bytes: the file's whole new contents.
    ///   - path: the file to create or replace.
    ///   - mode: the new file's permissions.
    ///   - owner: a user and group to give the file (kept from the file it replaces); ignored
    ///     when the process may not change them.
    ///   - replace: `false` makes the final step a `link(2)`, which fails if a file appeared at
    ///     `path` meanwhile (``TagImageError/Code/exists``): create-only, never overwrite.
    ///   - keepLocked: the new file is `flock`ed exclusively before it is renamed into place and
    ///     its descriptor returned open, so no other process can lock it between the rename and
    ///     the caller's next step (the caller closes it).
    /// - Returns: the new file's descriptor with `keepLocked`, else `nil`.
    @discardableResult
    package static func write(
        _ bytes: [UInt8], to path: String, mode: Mode = .umask, owner: (uid_t, gid_t)? = nil, replace: Bool = true,
        keepLocked: Bool = false
    ) throws(TagImageError) -> Int32? {
        let directory = Self.directory(of: path)
        // Between creating the temporary file and registering it, a signal would leave it behind:
        // the cleanup signals wait (on this thread) until it is registered.
        let masked = TemporaryFiles.blockSignals()
        let created = Result { () throws(TagImageError) in try createTemporary(beside: path, in: directory, mode: mode) }
        let slot = (try? created.get()).map { TemporaryFiles.register($0.1) } ?? nil
        TemporaryFiles.restoreSignals(masked)
        let (fd, temporary) = try created.get()
        defer { TemporaryFiles.unregister(slot) }
        var failure: TagImageError?
        var open = true
        func closeOnce() {
            if open { close(fd) }
            open = false
        }
        if keepLocked, flock(fd, LOCK_EX | LOCK_NB) != 0 {
            failure = RegularFile.ioError("cannot lock \(temporary)")
        }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = RegularFile.ioError("cannot write \(temporary)")
                    return
                }
                offset += written
            }
        }
        if failure == nil, case .exactly(let bits) = mode, fchmod(fd, bits) != 0 {
            failure = RegularFile.ioError("cannot set the mode of \(temporary)")
        }
        if failure == nil, let (uid, gid) = owner {
            _ = fchown(fd, uid, gid)  // only root may give a file away; others keep their own
        }
        if failure == nil, !flushToDisk(fd) { failure = RegularFile.ioError("cannot flush \(temporary) to disk") }
        if !keepLocked || failure != nil { closeOnce() }
        if failure == nil {
            if replace {
                if rename(temporary, path) != 0 { failure = RegularFile.ioError("cannot rename \(temporary) to \(path)") }
            } else if link(temporary, path) != 0 {
                failure =
                    errno == EEXIST
                    ? TagImageError(.exists, "already exists")
                    : RegularFile.ioError("cannot create \(path)")
                unlink(temporary)
            } else {
                unlink(temporary)
            }
        }
        if let failure {
            closeOnce()
            unlink(temporary)
            throw failure
        }
        let directoryFD = systemOpen(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = flushToDisk(directoryFD)
            close(directoryFD)
        }
        return keepLocked ? fd : nil
    }

    /// `fsync`, or on Darwin `F_FULLFSYNC`, which (unlike its `fsync`) reaches stable storage.
    static func flushToDisk(_ fd: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }

    /// Reads a whole regular file (see `RegularFile/read(_:limit:)`).
    static func read(_ path: String, limit: Int = 16 << 20) throws(TagImageError) -> [UInt8] {
        try RegularFile.read(path, limit: limit)
    }

    /// The folder holding `path` ("." for a bare name, "/" for a file in the root).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Creates `.NAME.XXXXXX` beside `path` with `O_EXCL`, so the kernel applies the umask to
    /// `0666` for ``Mode/umask`` and nobody else can open it before it is complete.
    private static func createTemporary(beside path: String, in directory: String, mode: Mode) throws(TagImageError) -> (Int32, String) {
        let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let creationMode: mode_t =
            switch mode {
            case .umask: 0o666
            case .exactly: 0o600
            }
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in alphabet.randomElement()! })
            let candidate = (directory == "/" ? "" : directory) + "/.\(base).\(suffix)"
            let fd = systemOpen(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, creationMode)
            if fd >= 0 { return (fd, candidate) }
            if errno != EEXIST { throw RegularFile.ioError("cannot create a temporary file in \(directory) to save \(path)") }
        }
        throw TagImageError(.io, "cannot create a temporary file in \(directory) to save \(path): every name tried exists")
    }
}
