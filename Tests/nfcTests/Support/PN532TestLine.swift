import Foundation
import NFCBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PN532 host on a serial line, for tests of `nfc emulate --pn532`: raw terminal, one frame
/// out, the ACK and the response frame back (UM0701-02 §6.2.1), nothing waiting forever.
final class PN532TestLine {
    private let fd: Int32

    /// Opens the terminal at `path` (the emulator's link) raw.
    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        var settings = termios()
        tcgetattr(fd, &settings)
        cfmakeraw(&settings)
        tcsetattr(fd, TCSANOW, &settings)
    }

    /// Closes the terminal.
    func closeLine() { _ = close(fd) }

    /// Sends a command (the bytes after TFI `D4`) and returns the response's bytes from TFI `D5` on.
    func command(_ data: [UInt8]) throws -> [UInt8] {
        let body: [UInt8] = [0xD4] + data
        let frame: [UInt8] = [0x00, 0x00, 0xFF, UInt8(body.count), 0 &- UInt8(body.count)] + body + [0 &- body.reduce(0, &+), 0x00]
        _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let ack = try receive(6)
        guard ack == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00] else { throw CocoaError(.fileReadCorruptFile) }
        let header = try receive(5)
        guard header.starts(with: [0x00, 0x00, 0xFF]), header[3] &+ header[4] == 0 else { throw CocoaError(.fileReadCorruptFile) }
        let rest = try receive(Int(header[3]) + 2)
        return Array(rest.prefix(Int(header[3])))
    }

    /// Exactly `count` bytes, or an error after 5 seconds without any.
    private func receive(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5_000) > 0 else { throw CocoaError(.fileReadUnknown) }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, count - bytes.count) }
            guard n > 0 else { throw CocoaError(.fileReadUnknown) }
            bytes += buffer.prefix(n)
        }
        return bytes
    }
}
