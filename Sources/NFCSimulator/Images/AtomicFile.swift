#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes whole files with POSIX calls; writes are atomic.
enum AtomicFile {
    /// Writes `bytes` to `path` so that a crash at any moment leaves either the old file or the
    /// new one: a temporary file in the same directory is written, flushed to disk with `fsync`,
    /// then renamed over the target (rename is atomic within a file system, POSIX.1-2017 rename()).
    static func write(_ bytes: [UInt8], to path: String) throws(TagImageError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ioError("cannot create a temporary file next to \(path)") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write \(temporary)"
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "cannot flush \(temporary) to disk" }
        if failure == nil, fchmod(fd, 0o644) != 0 { failure = "cannot set the mode of \(temporary)" }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = "cannot rename \(temporary) to \(path)" }
        if let failure {
            unlink(temporary)
            throw ioError(failure)
        }
        // Make the rename itself durable.
        let directoryFD = open(directory.isEmpty ? "/" : directory, O_RDONLY)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Reads a whole file, refusing files larger than `limit` bytes.
    static func read(_ path: String, limit: Int = 16 << 20) throws(TagImageError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ioError("cannot open \(path)") }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(path)")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit {
                throw TagImageError(.malformed, "\(path) is larger than \(limit) bytes: not a tag image")
            }
        }
        return result
    }

    private static func ioError(_ what: String) -> TagImageError {
        TagImageError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// `write(2)` and `read(2)`, named apart from `AtomicFile`'s own `write` and `read`.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
