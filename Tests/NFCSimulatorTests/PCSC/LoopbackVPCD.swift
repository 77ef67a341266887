#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NFCSimulator
import Synchronization

/// vpcd's side of the vpcd protocol, in process: a listening socket on 127.0.0.1 (port chosen by
/// the kernel) that accepts the card and exchanges length-prefixed messages with blocking calls.
final class LoopbackVPCD {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var listener: Int32 = -1
    private(set) var connection: Int32 = -1
    let port: UInt16

    init() throws {
        #if os(Linux)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let fd = socket(AF_INET, stream, 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
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
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        if connection >= 0 { close(connection) }
        if listener >= 0 { close(listener) }
    }

    var endpoint: VPCDEndpoint { VPCDEndpoint(host: "127.0.0.1", port: port) }

    /// Waits for the card to connect.
    func accept() throws {
        let fd = posixAccept(listener)
        guard fd >= 0 else { throw Failure(description: "accept: \(errno)") }
        connection = fd
    }

    /// Stops listening (a later connection attempt is refused).
    func closeListener() {
        close(listener)
        listener = -1
    }

    /// Closes the card's connection (pcscd going away).
    func closeConnection() {
        close(connection)
        connection = -1
    }

    /// Sends one message; `split` writes the length and the payload in two sends, as older vpcd does.
    func send(_ payload: [UInt8], split: Bool = false) throws {
        let header = [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        if split {
            try write(header)
            try write(payload)
        } else {
            try write(header + payload)
        }
    }

    /// Receives one message; `nil` when the card closed the connection.
    func receive() throws -> [UInt8]? {
        guard let header = try read(2) else { return nil }
        let length = Int(header[0]) << 8 | Int(header[1])
        return try read(length)
    }

    /// Sends an APDU and returns the card's answer.
    func transmit(_ apdu: [UInt8]) throws -> [UInt8]? {
        try send(apdu)
        return try receive()
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { posixSend(connection, $0.baseAddress! + sent, bytes.count - sent, 0) }
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
            let got = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + filled, count - filled, 0) }
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

/// Runs `VPCDLink.serve` on a thread of its own and hands back how it ended, waiting on a
/// semaphore the thread signals (not on time).
final class ServingThread: Sendable {
    private let result = Mutex<(VPCDLinkEnding, EmulatedReaderFront)?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(link: VPCDLink, front: EmulatedReaderFront, removeAfter: Int? = nil) {
        let thread = Thread { [self] in
            var front = front
            let ending = link.serve(&front, removeAfter: removeAfter)
            result.withLock { $0 = (ending, front) }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for `serve` to return.
    func wait() -> (ending: VPCDLinkEnding, front: EmulatedReaderFront)? {
        finished.wait()
        return result.withLock { $0 }
    }
}
