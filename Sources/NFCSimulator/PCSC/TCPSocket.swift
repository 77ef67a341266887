#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX socket calls the vpcd link makes (POSIX.1-2017 socket, connect, recv, send,
/// setsockopt; Linux tcp(7) for `TCP_QUICKACK`), without Foundation networking.
enum TCPSocket {
    /// What a read of an exact number of bytes gave.
    enum ReadResult {
        case bytes([UInt8])
        /// The peer closed (or the socket was shut down) before all bytes came.
        case closed
        /// `recv` failed with this `errno`.
        case failed(Int32)
    }

    /// How long a connection attempt may take before it is given up (`ETIMEDOUT`).
    static let connectTimeLimitMilliseconds = 5_000
    /// How often a connection attempt checks whether it should stop.
    static let connectSliceMilliseconds: Int32 = 100

    /// Opens a TCP connection to `endpoint`, trying each address the host resolves to, and sets
    /// `TCP_NODELAY`. `shouldStop` is asked every 100 ms while a connection is pending.
    /// - Returns: the connected socket.
    static func connect(to endpoint: VPCDEndpoint, shouldStop: () -> Bool) throws(VPCDLinkError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolvableHost(endpoint, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = ECONNREFUSED
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            if shouldStop() { throw .stopped }
            let fd = socket(entry.pointee.ai_family, entry.pointee.ai_socktype, entry.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            let code = connectWithin(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen, shouldStop: shouldStop)
            if code == 0 {
                configure(fd)
                return fd
            }
            close(fd)
            if shouldStop() { throw .stopped }
            lastError = code
        }
        if lastError == ECONNREFUSED { throw .connectionRefused(endpoint) }
        throw .connectFailed(endpoint, errno: lastError)
    }

    /// A non-blocking connect polled in slices, so a stop request or the time limit ends it;
    /// the socket is blocking again afterwards. Returns 0 or the `errno` of the failure.
    private static func connectWithin(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, shouldStop: () -> Bool
    ) -> Int32 {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return errno }
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if posixConnect(fd, address, length) == 0 { return 0 }
        guard errno == EINPROGRESS || errno == EINTR else { return errno }
        var waited = 0
        while waited < connectTimeLimitMilliseconds {
            if shouldStop() { return ECANCELED }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, connectSliceMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if ready == 0 {
                waited += Int(connectSliceMilliseconds)
                continue
            }
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return errno }
            return failure
        }
        return ETIMEDOUT
    }

    /// `TCP_NODELAY` (our replies go out at once) and, on Darwin, `SO_NOSIGPIPE`.
    private static func configure(_ fd: Int32) {
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Acknowledges at once what arrived (Linux tcp(7) `TCP_QUICKACK`, which the kernel clears
    /// again by itself, so it is set after every read): vpcd may write a message's length and
    /// payload in two segments without `TCP_NODELAY`, and a delayed ACK would hold the second
    /// ~40 ms. Elsewhere nothing to do.
    static func acknowledgeQuickly(_ fd: Int32) {
        #if os(Linux)
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), Int32(TCP_QUICKACK), &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Reads exactly `count` bytes, retrying short reads and `EINTR`.
    static func read(_ fd: Int32, count: Int) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return recv(fd, base + filled, count - filled, 0)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if got == 0 { return .closed }
            acknowledgeQuickly(fd)
            filled += got
        }
        return .bytes(buffer)
    }

    /// Writes all of `bytes` (one `send` when the kernel takes them at once), retrying short
    /// writes and `EINTR`. Returns 0 or the `errno` of the failure.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return send(fd, base + sent, bytes.count - sent, sendFlags)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            sent += count
        }
        return 0
    }

    /// Ends both directions: a thread blocked in `recv` on the socket returns at once.
    static func shutDown(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    #if os(Linux)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    /// No `SIGPIPE` when vpcd has gone.
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif
}

/// `connect(2)`, named apart from ``TCPSocket/connect(to:shouldStop:)``.
private func posixConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
