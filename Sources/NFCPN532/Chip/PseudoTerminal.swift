import NFCTransport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal for a virtual PN532: the chip holds the master side, a client (libnfc's
/// `pn532_uart`, nfcpy's `tty` driver) opens the device through a symbolic link at a path the
/// user chose.
///
/// The device side stays open here too, raw (no echo, no line editing: the bytes are frames), so
/// that a client closing and opening it again finds the same line. ``close()`` removes the link
/// and closes both sides; a link still there when the process exits normally (a Core NFC session
/// whose reader was never stopped) is removed then, while it still points to its device.
package final class PseudoTerminal: @unchecked Sendable {
    /// The master side, which the chip reads and writes.
    package let master: Int32
    /// The device's own path, e.g. `/dev/pts/3`.
    package let device: String
    /// The symbolic link to `device`.
    package let linkPath: String
    private let slave: Int32
    private var closed = false

    /// Opens a new pseudo-terminal and links `linkPath` to its device. An existing symbolic link
    /// at `linkPath` is replaced; any other file there is left alone and is an error.
    /// - Throws: `TransportError` `.serviceUnavailable`, naming the step that failed and why.
    package init(linkingAt linkPath: String) throws(TransportError) {
        let (master, device) = try Self.openMaster()
        let slave = open(device, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            let reason = String(cString: strerror(errno))
            Glibc_close(master)
            throw TransportError(.serviceUnavailable, "cannot open \(device): \(reason)")
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        do {
            try Self.link(linkPath, to: device)
        } catch {
            Glibc_close(slave)
            Glibc_close(master)
            throw error
        }
        LiveLinks.add(linkPath, device: device)
        self.master = master
        self.slave = slave
        self.device = device
        self.linkPath = linkPath
    }

    deinit { close() }

    /// Removes the link (while it still points to this terminal) and closes the terminal; later
    /// calls do nothing. Call it once nothing reads `master` any more.
    package func close() {
        guard !closed else { return }
        closed = true
        LiveLinks.remove(linkPath, device: device)
        Glibc_close(slave)
        Glibc_close(master)
    }

    /// A new pseudo-terminal: its master side and the path of its device.
    private static func openMaster() throws(TransportError) -> (Int32, String) {
        #if os(Linux)
        // Glibc's posix_openpt/ptsname are not visible to Swift; on Linux they are /dev/ptmx and
        // two ioctls (Linux asm-generic/ioctls.h: TIOCSPTLCK _IOW('T', 0x31, int) unlocks the
        // terminal, TIOCGPTN _IOR('T', 0x30, unsigned int) gives its number; devpts needs no grantpt).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            let reason = String(cString: strerror(errno))
            if master >= 0 { Glibc_close(master) }
            throw TransportError(.serviceUnavailable, "cannot open a pseudo-terminal: \(reason)")
        }
        return (master, "/dev/pts/\(number)")
        #else
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw TransportError(.serviceUnavailable, "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        return (master, String(cString: name))
        #endif
    }

    /// `path` as a symbolic link to `device`; an existing link is replaced, any other file is left alone.
    private static func link(_ path: String, to device: String) throws(TransportError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFLNK else {
                throw TransportError(.serviceUnavailable, "\(path) exists and is not a symbolic link: choose another path")
            }
            unlink(path)
        }
        guard symlink(device, path) == 0 else {
            throw TransportError(.serviceUnavailable, "cannot link \(path) to \(device): \(String(cString: strerror(errno)))")
        }
    }
}

/// The links of open pseudo-terminals, removed at normal process exit (`atexit`, installed with
/// the first link). Another terminal may have taken a path since: a link is removed only while
/// it points to its own device.
enum LiveLinks {
    private static let links = Mutex<[String: String]>([:])
    private static let exitHook: Void = { atexit { LiveLinks.removeAll() } }()

    static func add(_ path: String, device: String) {
        _ = exitHook
        links.withLock { $0[path] = device }
    }

    static func remove(_ path: String, device: String) {
        links.withLock { links in
            if links[path] == device { links[path] = nil }
        }
        unlinkIfOwn(path, device: device)
    }

    /// Removes the links whose paths `matching` accepts (at exit: all of them).
    static func removeAll(matching: (String) -> Bool = { _ in true }) {
        let chosen = links.withLock { links in
            let chosen = links.filter { matching($0.key) }
            for path in chosen.keys { links[path] = nil }
            return chosen
        }
        for (path, device) in chosen { unlinkIfOwn(path, device: device) }
    }

    private static func unlinkIfOwn(_ path: String, device: String) {
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &target, target.count - 1)
        if length > 0, String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == device {
            unlink(path)
        }
    }
}

/// `close(2)`, out of the way of the class's own `close()`.
private func Glibc_close(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
