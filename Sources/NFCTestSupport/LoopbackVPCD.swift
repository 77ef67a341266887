#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// vpcd's side of the vpcd protocol (vsmartcard vpcd: every message a 2-byte big-endian length
/// and a payload), in process: a listening socket on 127.0.0.1, port chosen by the kernel, that
/// accepts the card and exchanges messages with blocking calls. For tests of the card side.
package final class LoopbackVPCD {
    /// A socket call that failed.
    package struct Failure: Error, CustomStringConvertible {
        /// The call and its `errno`, e.g. `bind/listen: 98`.
        package let description: String
    }

    private(set) var listener: Int32 = -1
    private(set) var connection: Int32 = -1
    /// The port it listens on.
    package let port: UInt16

    /// Listens on `port` (0: any free port).
    package init(port: UInt16 = 0) throws {
        #if os(Linux)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let fd = socket(AF_INET, stream, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw Failure(description: "bind/listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Failure(description: "getsockname: \(errno)")
        }
        listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        if connection >= 0 { close(connection) }
        if listener >= 0 { close(listener) }
    }

    /// Waits for the card to connect.
    package func accept() throws {
        let fd = posixAccept(listener)
        guard fd >= 0 else { throw Failure(description: "accept: \(errno)") }
        // A card that never answers fails the test after 30 s instead of hanging the run
        // (a blocking read cannot be cancelled by the test's time limit).
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        connection = fd
    }

    /// Stops listening (a later connection attempt is refused).
    package func closeListener() {
        close(listener)
        listener = -1
    }

    /// Closes the card's connection (pcscd going away).
    package func closeConnection() {
        close(connection)
        connection = -1
    }

    /// Sends one message; `split` writes the length and the payload in two sends, as older vpcd does.
    package func send(_ payload: [UInt8], split: Bool = false) throws {
        let header = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        if split {
            try write(header)
            try write(payload)
        } else {
            try write(header + payload)
        }
    }

    /// Receives one message; `nil` when the card closed the connection.
    package func receive() throws -> [UInt8]? {
        guard let header = try read(2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return try read(length)
    }

    /// Sends an APDU and returns the card's answer.
    package func transmit(_ apdu: [UInt8]) throws -> [UInt8]? {
        try send(apdu)
        return try receive()
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return posixSend(connection, base + sent, bytes.count - sent, 0)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(errno)")
            }
            sent += count
        }
    }

    private func read(_ count: Int) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return recv(connection, base + filled, count - filled, 0)
            }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw Failure(description: "recv: \(errno)")
            }
            if got == 0 { return nil }
            filled += got
        }
        return buffer
    }
}

private func posixAccept(_ fd: Int32) -> Int32 {
    accept(fd, nil, nil)
}

private func posixSend(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, buffer, count, flags)
}
