import NFCTransport

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
/// and closes both sides.
public final class PseudoTerminal: @unchecked Sendable {
    /// The master side, which the chip reads and writes.
    public let master: Int32
    /// The device's own path, e.g. `/dev/pts/3`.
    public let device: String
    /// The symbolic link to `device`.
    public let linkPath: String
    private let slave: Int32
    private var closed = false

    /// Opens a new pseudo-terminal and links `linkPath` to its device. An existing symbolic link
    /// at `linkPath` is replaced; any other file there is left alone and is an error.
    /// - Throws: `TransportError` `.serviceUnavailable`, naming the step that failed and why.
    public init(linkingAt linkPath: String) throws(TransportError) {
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
        self.master = master
        self.slave = slave
        self.device = device
        self.linkPath = linkPath
    }

    deinit { close() }

    /// Removes the link (while it still points to this terminal) and closes the terminal; later
    /// calls do nothing. Call it once nothing reads `master` any more.
    public func close() {
        guard !closed else { return }
        closed = true
        // Another terminal may have taken the path since: remove the link only while it is ours.
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink(linkPath, &target, target.count - 1)
        if length > 0, String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == device {
            unlink(linkPath)
        }
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

/// `close(2)`, out of the way of the class's own `close()`.
private func Glibc_close(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(fd)
    #else
    _ = Darwin.close(fd)
    #endif
}
