import NFCBytes
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 UDP socket for nfcpy's frontend (nfcpy's `udp` driver speaks IPv4 only): bound to
/// a port to listen, or to an ephemeral port to send to one peer. Every wait is a `poll` with a
/// time-out, so nothing blocks forever; the descriptor closes with ``close()`` or the object.
final class UDPSocket: @unchecked Sendable {
    let descriptor: Int32
    private let closed = Guarded(false)

    /// An IPv4 address and port.
    struct Address: Sendable, Hashable, CustomStringConvertible {
        var address: UInt32  // network byte order
        var port: UInt16  // host byte order

        var description: String {
            let a = UInt32(bigEndian: address)
            return "\(a >> 24).\(a >> 16 & 0xFF).\(a >> 8 & 0xFF).\(a & 0xFF):\(port)"
        }

        var sockaddr: sockaddr_in {
            var value = sockaddr_in()
            value.sin_family = sa_family_t(AF_INET)
            value.sin_port = port.bigEndian
            value.sin_addr.s_addr = address
            return value
        }

        /// `host`'s first IPv4 address (a name or a dotted quad), with `port`.
        static func resolve(_ host: String, port: UInt16) throws(TransportError) -> Address {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
            #else
            hints.ai_socktype = SOCK_DGRAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            defer { if list != nil { freeaddrinfo(list) } }
            guard status == 0, let first = list, let raw = first.pointee.ai_addr else {
                let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
                throw TransportError(.noSuchTarget, "\(host): cannot resolve it to an IPv4 address (\(reason))")
            }
            let address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            return Address(address: address, port: port)
        }
    }

    /// A socket bound to `address` (port 0: any free port).
    init(binding address: Address) throws(TransportError) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { throw TransportError(.serviceUnavailable, "cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        // No SO_REUSEADDR: a second emulator on the same port must fail, not share the datagrams.
        var bound = address.sockaddr
        let result = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            _ = Self.closeDescriptor(fd)
            throw TransportError(.sharingViolation, "cannot bind UDP \(address): \(reason)")
        }
        descriptor = fd
    }

    deinit { close() }

    /// The address and port the socket is bound to (the port the system chose for port 0).
    var localAddress: Address {
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Address(address: bound.sin_addr.s_addr, port: UInt16(bigEndian: bound.sin_port))
    }

    /// Closes the socket; later calls do nothing.
    func close() {
        let wasClosed = closed.withLock { state in
            defer { state = true }
            return state
        }
        if !wasClosed { _ = Self.closeDescriptor(descriptor) }
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }

    /// Sends one datagram to `peer`.
    func send(_ bytes: [UInt8], to peer: Address) throws(TransportError) {
        var target = peer.sockaddr
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard sent == bytes.count else {
            throw TransportError(.transmission, "UDP to \(peer): \(sent < 0 ? String(cString: strerror(errno)) : "short send")")
        }
    }

    /// The next datagram and its sender, waiting at most `milliseconds`; nil when none came.
    func receive(waiting milliseconds: Int32) -> (bytes: [UInt8], sender: Address)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, max(0, milliseconds)) > 0, poller.revents & Int16(POLLIN) != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &sender) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer[0..<count]), Address(address: sender.sin_addr.s_addr, port: UInt16(bigEndian: sender.sin_port)))
    }

    /// Throws away every datagram already waiting (a late answer must not pass for the next one).
    func drain() {
        while receive(waiting: 0) != nil {}
    }
}
