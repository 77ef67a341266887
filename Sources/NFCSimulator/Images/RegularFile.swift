#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening and reading a path a user gave, refusing anything but a regular file.
///
/// A FIFO opened for reading blocks until a writer appears, a character device may never end,
/// and a directory cannot be read: each would hang or confuse a command. The path is opened
/// with `O_NONBLOCK` (so a FIFO or a device returns at once, POSIX.1-2017 open()), checked with
/// `fstat` on the descriptor itself (no race with a rename between check and use), and only
/// then switched back to blocking reads.
package enum RegularFile {
    /// Opens `path` (read-only, or read-write when `writable`); throws when it is missing, not
    /// readable (or writable) or not a regular file.
    /// - Returns: the descriptor (close-on-exec) and its `stat`.
    package static func open(_ path: String, writable: Bool = false) throws(TagImageError) -> (descriptor: Int32, status: stat) {
        let fd = systemOpen(path, (writable ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = ioError("cannot inspect")
            close(fd)
            throw error
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw TagImageError(.notARegularFile, "is \(describe(status.st_mode)), not a regular file")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, status)
    }

    /// Reads a whole regular file, refusing files larger than `limit` bytes.
    package static func read(_ path: String, limit: Int = 16 << 20) throws(TagImageError) -> [UInt8] {
        let (fd, _) = try open(path)
        defer { close(fd) }
        return try readAll(fd, path: path, limit: limit)
    }

    /// Reads from an open descriptor to its end, refusing more than `limit` bytes.
    static func readAll(_ fd: Int32, path: String, limit: Int) throws(TagImageError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit {
                throw TagImageError(.tooLarge, "larger than \(limit) bytes")
            }
        }
        return result
    }

    /// "a directory", "a FIFO", … for a file type.
    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    static func ioError(_ what: String) -> TagImageError {
        let number = errno
        let code: TagImageError.Code =
            switch number {
            case ENOENT, ENOTDIR: .notFound
            case EACCES, EPERM, EROFS: .permissionDenied
            default: .io
            }
        return TagImageError(code, "\(what): \(String(cString: strerror(number)))")
    }
}

/// `open(2)`, `read(2)` and `write(2)`, named apart from the methods of the same names.
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    open(path, flags, mode)
}

func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

func systemClose(_ fd: Int32) {
    _ = close(fd)
}
