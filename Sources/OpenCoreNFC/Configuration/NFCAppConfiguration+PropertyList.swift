import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension NFCAppConfiguration {
    /// Reads the configuration from an Info.plist and an entitlements file, XML or binary.
    ///
    /// Keys that are not about NFC are ignored; a known key with a value of the wrong type is an
    /// error, not silently skipped.
    ///
    /// - Parameters:
    ///   - infoPlist: the bytes of the app's `Info.plist`.
    ///   - entitlements: the bytes of the app's `.entitlements` file; nil when it has none.
    /// - Throws: ``NFCConfigurationError`` naming the file, and the key for a wrong-typed value:
    ///   the first problem found, Info.plist first.
    public init(infoPlist: Data, entitlements: Data?) throws(NFCConfigurationError) {
        var reader = PropertyListReader()
        let configuration = reader.read(infoPlist: infoPlist, entitlements: entitlements)
        if let first = reader.errors.first { throw first }
        self = configuration
    }

    /// Reads the configuration from files on disk.
    ///
    /// - Parameters:
    ///   - infoPlistURL: the app's `Info.plist`.
    ///   - entitlementsURL: the app's `.entitlements` file; nil when it has none.
    /// - Throws: ``NFCConfigurationError`` with ``NFCConfigurationError/Code/unreadableFile`` when a
    ///   file cannot be read, or any error of ``init(infoPlist:entitlements:)``.
    public init(infoPlistURL: URL, entitlementsURL: URL?) throws(NFCConfigurationError) {
        let info = try Self.contents(of: infoPlistURL, .infoPlist)
        let rights = try entitlementsURL.map { url throws(NFCConfigurationError) in try Self.contents(of: url, .entitlements) }
        try self.init(infoPlist: info, entitlements: rights)
    }

    /// The bytes of a file, or an ``NFCConfigurationError/Code/unreadableFile`` error.
    static func contents(of url: URL, _ document: NFCConfigurationError.Document) throws(NFCConfigurationError) -> Data {
        // A FIFO or a device would block or never end: only regular files are read. The file is
        // opened without blocking and checked on its descriptor, so nothing can swap it between.
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw NFCConfigurationError(.unreadableFile, in: document, "cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw NFCConfigurationError(.unreadableFile, in: document, "cannot read \(url.path): not a regular file")
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw NFCConfigurationError(.unreadableFile, in: document, "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}
