import NFCBytes
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte line between a host and a PN532: a serial port in raw 8N1 mode (a board on a
/// USB-serial adapter, the PN532's HSU, UM0701-02 §6.2.2), a pseudo-terminal (`nfc emulate
/// --pn532`), or any file descriptor that carries bytes both ways (a socket pair in tests).
///
/// Every read and write waits at most its time-out (a `poll` first, the descriptor non-blocking):
/// a board that stops answering, or a line whose other end closed, is an error, never a hang.
/// One caller at a time uses a line (``PN532Link`` runs its dialog on one queue).
package final class PN532Line: @unchecked Sendable {
    /// The path or name the line was opened from, for messages.
    package let name: String
    /// The serial speed, in bits per second (115,200 for the PN532's HSU after reset, §6.2.2);
    /// used to estimate how long a frame takes on the wire.
    package let baudRate: Int
    private let descriptor: Int32
    private let closed = Guarded(false)

    /// Takes over an open descriptor (it is closed with the line); nothing about it is changed
    /// but its blocking mode.
    package init(fileDescriptor: Int32, name: String, baudRate: Int = 115_200) {
        self.name = name
        self.baudRate = baudRate
        descriptor = fileDescriptor
        let flags = fcntl(fileDescriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    /// The descriptor is closed only here: a read may still be polling it on another thread when
    /// ``close()`` is called, and a number closed under it could be reused by another file.
    deinit { _ = systemClose(descriptor) }

    /// The serial speeds a line opens at (the PN532's HSU takes 9,600 to 1,288,000 baud,
    /// SetSerialBaudRate §7.2.13; these are the ones both a PN532 and termios name).
    package static let baudRates = [9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// Opens a serial device (or a pseudo-terminal, or a link to one) raw, 8N1, at `baudRate`.
    /// - Throws: `TransportError` `.noSuchTarget` when the path does not exist, `.sharingViolation`
    ///   when it is busy, `.serviceUnavailable` when it cannot be opened or is not a terminal,
    ///   `.unsupportedCommand` for a speed outside ``baudRates``.
    package static func openSerial(path: String, baudRate: Int = 115_200) throws(TransportError) -> PN532Line {
        guard let speed = speed(baudRate) else {
            throw TransportError(
                .unsupportedCommand,
                "\(path): \(baudRate) baud is not a serial speed (\(baudRates.map(String.init).joined(separator: ", ")))")
        }
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let number = errno
            let reason = String(cString: strerror(number))
            switch number {
            case ENOENT: throw TransportError(.noSuchTarget, "\(path): no such serial device (\(reason))")
            case EBUSY: throw TransportError(.sharingViolation, "\(path): busy (\(reason))")
            default: throw TransportError(.serviceUnavailable, "\(path): cannot open (\(reason))")
            }
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = systemClose(fd)
            throw TransportError(.serviceUnavailable, "\(path): not a serial line (\(reason))")
        }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        // 8 data bits, no parity, one stop bit, the receiver on, modem lines ignored.
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = systemClose(fd)
            throw TransportError(.serviceUnavailable, "\(path): cannot set \(baudRate) baud 8N1 (\(reason))")
        }
        tcflush(fd, TCIOFLUSH)
        return PN532Line(fileDescriptor: fd, name: path, baudRate: baudRate)
    }

    private static func speed(_ baudRate: Int) -> speed_t? {
        switch baudRate {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        #if os(Linux)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        #endif
        default: nil
        }
    }

    /// How long `count` bytes take on the wire (10 bits a byte: start, 8 data, stop).
    package func transferTime(of count: Int) -> Duration {
        .microseconds(count * 10 * 1_000_000 / max(baudRate, 1))
    }

    /// Writes every byte, waiting at most `timeout` for the line to take them.
    /// - Throws: `TransportError` `.notConnected` after ``close()``, `.readerRemoved` when the
    ///   other end is gone, `.timeout` when the line does not drain in time.
    package func write(_ bytes: [UInt8], timeout: Duration) throws(TransportError) {
        let fd = try openDescriptor()
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            let number = errno
            guard written < 0, number == EAGAIN || number == EINTR else {
                throw TransportError(.readerRemoved, "\(name): the line closed while writing (\(String(cString: strerror(number))))")
            }
            guard try wait(fd, for: Int16(POLLOUT), until: deadline) else {
                throw TransportError(.timeout, "\(name): the line took \(offset) of \(bytes.count) bytes in \(timeout)")
            }
        }
    }

    /// The bytes that arrive within `timeout` (at least one, as soon as there is one); empty
    /// when none came.
    /// - Throws: `TransportError` `.notConnected` after ``close()``, `.readerRemoved` when the
    ///   other end closed (end of file, `EIO` on a terminal whose other side is gone).
    package func read(timeout: Duration) throws(TransportError) -> [UInt8] {
        let fd = try openDescriptor()
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[0..<count]) }
            let number = errno
            if count == 0 || (number != EAGAIN && number != EINTR) {
                let reason = count == 0 ? "end of file" : String(cString: strerror(number))
                throw TransportError(.readerRemoved, "\(name): the line closed (\(reason))")
            }
            guard try wait(fd, for: Int16(POLLIN), until: deadline) else { return [] }
        }
    }

    /// Throws away whatever the line holds unread (a late answer to an aborted command).
    package func discardInput() {
        guard !closed.withLock({ $0 }) else { return }
        let fd = descriptor
        var buffer = [UInt8](repeating: 0, count: 512)
        while buffer.withUnsafeMutableBytes({ systemRead(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes the line: later reads and writes throw `.notConnected`, and a socket's other end
    /// sees its end (the descriptor itself is released with the line).
    package func close() {
        let wasClosed = closed.withLock { value -> Bool in
            defer { value = true }
            return value
        }
        if !wasClosed { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    private func openDescriptor() throws(TransportError) -> Int32 {
        guard !closed.withLock({ $0 }) else { throw TransportError(.notConnected, "\(name): the line is closed") }
        return descriptor
    }

    /// Waits for `events` until `deadline`; false when the deadline passed first.
    private func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws(TransportError) -> Bool {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            let milliseconds: Int32 =
                left >= .seconds(60)
                ? 60_000 : Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready > 0 {
                // POLLHUP with POLLIN still lets the pending bytes be read; the read then reports the end.
                return true
            }
            if ready < 0, errno != EINTR {
                throw TransportError(.readerRemoved, "\(name): poll failed (\(String(cString: strerror(errno))))")
            }
        }
    }
}

// The C library's functions, named apart from the line's own `read`, `write` and `close`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}
